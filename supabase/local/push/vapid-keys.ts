import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import webpush from 'web-push';

export type VapidKeys = { publicKey: string; privateKey: string };

/** Where the local stack keeps the dev key pair it made (inside the git-ignored data folder). */
export const vapidKeysFile = (dataDir: string) => `${dataDir}/vapid-keys.json`;

/**
 * The one rule for where the local VAPID pair comes from, for the stack and for any process
 * beside it (`npm run jobs`): VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set, else the pair
 * this data folder holds. Null when neither: a 'memory' stack's pair lives only in that stack,
 * which hands it on in its `functionsEnv`. Never creates a pair (localVapidKeys does, for a stack).
 */
export function savedVapidKeys(env: Record<string, string | undefined>, dataDir: string): VapidKeys | null {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY };
  if (dataDir === 'memory') return null;
  const file = vapidKeysFile(dataDir);
  if (!existsSync(file)) return null;
  const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<VapidKeys>;
  return saved.publicKey && saved.privateKey ? { publicKey: saved.publicKey, privateKey: saved.privateKey } : null;
}

/**
 * The VAPID key pair of a local stack: savedVapidKeys, else a new one written into the data folder
 * (a 'memory' stack keeps it in memory). Never committed: production sets its own pair in
 * Netlify's environment.
 */
export function localVapidKeys(env: Record<string, string | undefined>, dataDir: string): VapidKeys {
  const saved = savedVapidKeys(env, dataDir);
  if (saved) return saved;
  const keys = webpush.generateVAPIDKeys();
  if (dataDir === 'memory') return keys;
  const file = vapidKeysFile(dataDir);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return keys;
}
