/**
 * Fails when a production build (dist/) contains something only the server may know: the SumUp
 * API key, the Supabase service-role key (or any JWT whose role is service_role), the JWT
 * secret, or the payment provider's API address (the browser must never call SumUp directly).
 *
 *   npx tsx scripts/check-bundle-secrets.ts [dist]
 *
 * Run after `npm run build` (netlify.toml and CI do). Secret values are read from the
 * environment of the build and from .env / .env.example, so the local stack's keys count too.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Finding = { file: string; what: string };

/** Server-only variables whose values must never appear in the bundle. */
export const SECRET_VARIABLES = [
  'SUMUP_API_KEY',
  'SUPABASE_SERVICE_ROLE_KEY',
  'SUPABASE_JWT_SECRET',
  'SUMUP_PAY_TO_EMAIL',
  'SMTP_URL',
  'VAPID_PRIVATE_KEY',
] as const;

/** Text that betrays a provider call or a provider secret, whatever its value. */
export const FORBIDDEN_PATTERNS: readonly { what: string; pattern: RegExp }[] = [
  { what: 'the SumUp API address', pattern: /api\.sumup\.com/i },
  { what: 'a SumUp secret key', pattern: /\b(?:sup_sk|sk_live|sk_test)_[A-Za-z0-9]{8,}/ },
  { what: 'an SMTP URL with a password', pattern: /smtps?:\/\/[^\s:@/]+:[^\s@/]+@/i },
];

const JWT = /eyJ[A-Za-z0-9_-]{8,}\.(eyJ[A-Za-z0-9_-]{8,})\.[A-Za-z0-9_-]{8,}/g;

function jwtRole(payload: string): unknown {
  try {
    return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { role?: unknown }).role;
  } catch {
    return undefined;
  }
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Every leak in `dir`, given the secret values to look for. */
export function scanBundle(dir: string, secrets: Record<string, string>): Finding[] {
  const findings: Finding[] = [];
  const values = Object.entries(secrets).filter(([, value]) => value.length >= 8);
  for (const path of files(dir)) {
    const text = readFileSync(path).toString('latin1');
    const file = relative(dir, path);
    for (const [name, value] of values) {
      if (text.includes(value)) findings.push({ file, what: `the value of ${name}` });
    }
    for (const { what, pattern } of FORBIDDEN_PATTERNS) {
      if (pattern.test(text)) findings.push({ file, what });
    }
    for (const match of text.matchAll(JWT)) {
      if (jwtRole(match[1]!) === 'service_role') findings.push({ file, what: 'a service_role JWT' });
    }
  }
  return findings;
}

function readDotenv(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m?.[1] && m[2]) out[m[1]] = m[2];
  }
  return out;
}

/** Secret values from .env.example, .env and the environment (later wins; all are checked). */
export function knownSecrets(root: string, env: Record<string, string | undefined> = process.env): Record<string, string> {
  const sources = [readDotenv(join(root, '.env.example')), readDotenv(join(root, '.env')), env];
  const secrets: Record<string, string> = {};
  sources.forEach((source, i) => {
    for (const name of SECRET_VARIABLES) {
      const value = source[name];
      if (value) secrets[`${name} (${['.env.example', '.env', 'environment'][i]})`] = value;
    }
  });
  return secrets;
}

function main(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dist = join(root, process.argv[2] ?? 'dist');
  if (!existsSync(dist)) {
    console.error(`check-bundle-secrets: ${dist} does not exist; run npm run build first`);
    process.exit(2);
  }
  const findings = scanBundle(dist, knownSecrets(root));
  if (findings.length > 0) {
    console.error('check-bundle-secrets: the build contains server-only material:');
    for (const f of findings) console.error(`  ${f.file}: ${f.what}`);
    process.exit(1);
  }
  console.log(`check-bundle-secrets: ${dist} holds no provider key, service-role key or provider API address`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
