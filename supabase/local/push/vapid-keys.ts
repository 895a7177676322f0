import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import webpush from 'web-push';

export type VapidKeys = { publicKey: string; privateKey: string };

/** Where the local stack keeps the dev key pair it made (inside the git-ignored data folder). */
export const vapidKeysFile = (dataDir: string) => `${dataDir}/vapid-keys.json`;

/**
 * The VAPID key pair of the local stack: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set, else the
 * pair this data folder already holds, else a new one written there (a 'memory' stack keeps it in
 * memory). Never committed: production sets its own pair in Netlify's environment.
 */
export function localVapidKeys(env: Record<string, string | undefined>, dataDir: string): VapidKeys {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY };
  if (dataDir === 'memory') return webpush.generateVAPIDKeys();
  const file = vapidKeysFile(dataDir);
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<VapidKeys>;
    if (saved.publicKey && saved.privateKey) return { publicKey: saved.publicKey, privateKey: saved.privateKey };
  }
  const keys = webpush.generateVAPIDKeys();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return keys;
}
