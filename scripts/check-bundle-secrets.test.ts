import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { knownSecrets, scanBundle } from './check-bundle-secrets';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const jwt = (role: string) => `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ role, iss: 'supabase', iat: 1 })}.c2lnbmF0dXJlLXZhbHVl`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bundle-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><script src="/assets/index.js"></script>');
  writeFileSync(join(dir, 'assets', 'index.js'), `const anon="${jwt('anon')}";fetch("/.netlify/functions/create-checkout")`);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scanBundle', () => {
  it('passes a bundle with only the anon key and relative function URLs', () => {
    expect(scanBundle(dir, { SUMUP_API_KEY: 'sup_sk_live_abcdef123456' })).toEqual([]);
  });

  it.each([
    ['a service-role JWT', `const k="${jwt('service_role')}"`, 'a service_role JWT'],
    ['the SumUp API address', 'fetch("https://api.sumup.com/v0.1/checkouts")', 'the SumUp API address'],
    ['a SumUp secret key by shape', 'const k="sup_sk_AbCdEf1234567890"', 'a SumUp secret key'],
    ['the configured key value', 'const k="my-private-sumup-key-value"', 'the value of SUMUP_API_KEY'],
  ])('finds %s', (_label, code, what) => {
    writeFileSync(join(dir, 'assets', 'chunk.js'), code);
    expect(scanBundle(dir, { SUMUP_API_KEY: 'my-private-sumup-key-value' })).toEqual([{ file: join('assets', 'chunk.js'), what }]);
  });
});

it('collects the secret values from .env.example and the environment', () => {
  writeFileSync(join(dir, '.env.example'), 'VITE_SUPABASE_ANON_KEY=public\nSUPABASE_SERVICE_ROLE_KEY=local-service-key\nSUMUP_API_KEY=\n');
  expect(knownSecrets(dir, { SUMUP_API_KEY: 'env-sumup-key' })).toEqual({
    'SUPABASE_SERVICE_ROLE_KEY (.env.example)': 'local-service-key',
    'SUMUP_API_KEY (environment)': 'env-sumup-key',
  });
});
