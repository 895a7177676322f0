import { STUDIO } from '../../../src/config/studio';
import { ConfigError } from '../server-env';

/**
 * The VAPID key pair the studio signs its pushes with (RFC 8292), base64url as web-push's
 * `generateVAPIDKeys()` makes them: the public key is what browsers subscribe with (served by
 * the push-key function), the private key never leaves the functions. The subject is how a push
 * service reaches the studio about its pushes.
 */
export type PushEnv = { publicKey: string; privateKey: string; subject: string };

export function readPushEnv(source: Record<string, string | undefined> = process.env): PushEnv {
  const publicKey = source.VAPID_PUBLIC_KEY?.trim() ?? '';
  const privateKey = source.VAPID_PRIVATE_KEY?.trim() ?? '';
  if (!publicKey || !privateKey) {
    throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set to send pushes (npx web-push generate-vapid-keys)');
  }
  if (!/^[A-Za-z0-9_-]{86,88}$/.test(publicKey) || !/^[A-Za-z0-9_-]{42,44}$/.test(privateKey)) {
    throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be the base64url keys web-push generates');
  }
  const subject = source.VAPID_SUBJECT?.trim() || `mailto:${STUDIO.email}`;
  if (!/^(mailto:|https:\/\/)/.test(subject)) throw new ConfigError('VAPID_SUBJECT must be a mailto: or https:// address');
  return { publicKey, privateKey, subject };
}
