import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
import { afterEach, describe, expect, it } from 'vitest';
import { localVapidKeys, savedVapidKeys, vapidKeysFile } from './vapid-keys';

// One rule for where the local VAPID pair comes from (decision 0023): the stack makes one into its
// data folder; `npm run jobs` beside it finds the same one and never makes its own, which the
// stack's devices would refuse.
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vapid-'));
  dirs.push(dir);
  return dir;
};

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the local VAPID pair', () => {
  it('is the environment’s when set, for the stack and for a process beside it alike', () => {
    const pair = webpush.generateVAPIDKeys();
    const env = { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey };
    const dir = dataDir();
    expect(localVapidKeys(env, dir)).toEqual(pair);
    expect(savedVapidKeys(env, dir)).toEqual(pair);
    expect(savedVapidKeys(env, 'memory')).toEqual(pair);
    expect(existsSync(vapidKeysFile(dir))).toBe(false);
  });

  it('is made once by the stack into its data folder, where a process beside it finds the same pair', () => {
    const dir = dataDir();
    expect(savedVapidKeys({}, dir)).toBeNull();
    const made = localVapidKeys({}, dir);
    expect(savedVapidKeys({}, dir)).toEqual(made);
    expect(localVapidKeys({}, dir)).toEqual(made);
  });

  it('of a memory stack lives only in that stack: nothing beside it can find one', () => {
    expect(localVapidKeys({}, 'memory').publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(savedVapidKeys({}, 'memory')).toBeNull();
  });
});
