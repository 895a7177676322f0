import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './build';

/** An email the local stack's SMTP server received (its dev inbox, supabase/local/mail/inbox.ts). */
export interface InboxEmail {
  to: string;
  subject: string;
  from?: string;
  replyTo?: string | null;
  text?: string;
  html?: string;
  links?: string[];
  /** Lower-cased header names as the message arrived over SMTP, e.g. `content-type`, `message-id`. */
  headers?: Record<string, string>;
  [key: string]: unknown;
}

/** The part of supabase/local's programmatic API the harness and the bench rely on. */
export interface LocalStack {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  inbox: { list(): InboxEmail[] | Promise<InboxEmail[]>; clear(): void | Promise<void> };
  /** What the functions it hosts read (its URL and keys, the VAPID pair): `npm run jobs` beside it gets this. */
  functionsEnv: Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

/**
 * What journeys use of a running stack: its API and its inbox (a test worker reaches both over
 * HTTP), and the environment to run `npm run jobs` against it with.
 */
export type StackApi = Pick<LocalStack, 'url' | 'anonKey' | 'serviceRoleKey' | 'functionsEnv'> & {
  inbox: Pick<LocalStack['inbox'], 'list'>;
};

export interface StackOptions {
  port?: number;
  /** The local SMTP server's port (0: a free one). */
  smtpPort?: number;
  dataDir?: string;
  seed?: boolean;
  siteUrl?: string;
  quiet?: boolean;
  databaseUrl?: string;
  /** Auth's rate limits in place of config.toml's. */
  authRateLimits?: { emailSentPerHour?: number; tokenRefreshPer5Minutes?: number };
  /** Send queued emails and pushes at once (default true; the load bench turns it off). */
  senders?: boolean;
}

type StartStack = (options: StackOptions) => Promise<LocalStack>;

const CANDIDATES = ['supabase/local/index.ts', 'supabase/local/stack.ts', 'supabase/local/start-stack.ts'];

/** supabase/local's `startStack`, or null with the reason when the stack is not in the repo yet. */
export async function loadStartStack(): Promise<{ startStack: StartStack } | { missing: string }> {
  for (const rel of CANDIDATES) {
    const file = join(REPO_ROOT, rel);
    if (!existsSync(file)) continue;
    const mod = (await import(pathToFileURL(file).href)) as { startStack?: StartStack };
    if (typeof mod.startStack === 'function') return { startStack: mod.startStack };
  }
  return { missing: `supabase/local exports no startStack (looked in ${CANDIDATES.join(', ')})` };
}
