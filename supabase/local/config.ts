import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (two levels above this folder). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

function parseEnvFile(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (m?.[1] && m[2] !== undefined) out[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

/**
 * The local stack's settings: process env wins, then `.env`, then the documented local defaults
 * in `.env.example` (one place for every default value).
 */
export function readLocalEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const files: Record<string, string> = {
    ...parseEnvFile(`${repoRoot}.env.example`),
    ...parseEnvFile(`${repoRoot}.env`),
  };
  const merged = { ...files };
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') merged[k] = v;
  return followMovedStack(merged, env);
}

/**
 * A stack started on another port (`SUPABASE_LOCAL_PORT`, as its "port in use" message advises) is
 * found there by the commands beside it (`npm run jobs`, import, backup): the files' local
 * SUPABASE_URL names the default port, so it follows the setting unless SUPABASE_URL itself is set.
 */
function followMovedStack(merged: Record<string, string>, env: NodeJS.ProcessEnv): Record<string, string> {
  const port = env.SUPABASE_LOCAL_PORT;
  const url = merged.SUPABASE_URL;
  if (!port || env.SUPABASE_URL || !url) return merged;
  const parsed = new URL(url);
  if (parsed.hostname !== '127.0.0.1' && parsed.hostname !== 'localhost') return merged;
  parsed.port = port;
  return { ...merged, SUPABASE_URL: parsed.origin };
}

/**
 * The local stack's data folder (SUPABASE_LOCAL_DATA_DIR, default .data) as an absolute path from
 * the repository root, or 'memory': the stack and the processes beside it (`npm run jobs`) find
 * the same folder wherever they are started.
 */
export function localDataDir(setting: string | undefined): string {
  const dir = setting || '.data';
  return dir === 'memory' ? 'memory' : isAbsolute(dir) ? dir : resolve(repoRoot, dir);
}

/** Lifetime of an access token, as GoTrue's default JWT expiry. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** GoTrue's default refresh-token reuse interval: a just-rotated token may be presented again. */
export const REFRESH_REUSE_INTERVAL_SECONDS = 10;
/** Email links (confirmation, recovery) expire like GoTrue's default mailer OTP expiry. */
export const EMAIL_LINK_TTL_SECONDS = 24 * 3600;
/** GoTrue's default minimum password length. */
export const MIN_PASSWORD_LENGTH = 6;
/** GoTrue's SMTP max frequency: one email of a kind (confirmation, recovery) per user per minute. */
export const EMAIL_MAX_FREQUENCY_SECONDS = 60;
/** GoTrue's flow state expiry: a PKCE auth code must be exchanged within 5 minutes. */
export const FLOW_STATE_TTL_SECONDS = 300;
/** The schema holding the gateway's own RPCs; exposed to PostgREST but usable by service_role only. */
export const GATEWAY_SCHEMA = 'local_gateway';
