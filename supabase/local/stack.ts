/**
 * The local Supabase-compatible stack, programmatically (tests, the e2e runner, benches, dev.ts).
 *
 *   const stack = await startStack({ port: 0, dataDir: 'memory' });
 *   // stack.url, stack.anonKey, stack.serviceRoleKey: use with createClient(stack.url, stack.anonKey)
 *   // stack.inbox.list() -> emails sent (newest first; .links holds confirm/recovery links)
 *   await stack.stop();
 *
 * Options (all optional):
 * - port: gateway port on 127.0.0.1; 0 = a free random port. Default SUPABASE_LOCAL_PORT (54321).
 * - dataDir: folder for the database and stored files, or 'memory' (nothing on disk).
 *   Default SUPABASE_LOCAL_DATA_DIR (.data). The database lives in <dataDir>/pglite, files in
 *   <dataDir>/storage.
 * - seed: load supabase/seed.sql when the database is created (default true).
 * - siteUrl: the SPA's URL for emailed links (default SITE_URL).
 * - databaseUrl: a real PostgreSQL server instead of PGlite (default DATABASE_URL).
 * - smtpPort: port of the local mail server on 127.0.0.1 (0 = free; default SUPABASE_LOCAL_SMTP_PORT,
 *   or a free port when `port` is 0). Every email (outbox and auth) reaches the inbox through it.
 * - quiet: no PostgREST log output.
 * - authClock: auth's "now" in ms (tests move it past GoTrue's resend, reuse and expiry windows).
 * - authRateLimits: auth's rate limits in place of config.toml's.
 *
 * The stack sets SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, SMTP_URL, MAIL_FROM,
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY in process.env for the Netlify functions it hosts
 * in-process (so nothing local mails the world; its pushes go to whatever endpoint a member's
 * browser gave, the local push service's for browser-less subscriptions).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { readAuthConfig, type AuthConfig, type AuthRateLimits } from './auth/auth-config';
import { AuthMailer } from './auth/auth-mailer';
import { AuthService } from './auth/gotrue';
import { GATEWAY_SCHEMA, localDataDir, readLocalEnv, repoRoot } from './config';
import { startPgliteHost, type DatabaseHost } from './database-host';
import { FunctionsHost, installNetlifyGlobal } from './functions-host';
import { createGateway } from './gateway';
import { JwtKeys } from './jwt';
import { Inbox, type Email } from './mail/inbox';
import { emailDelivery, OutboxPump } from './mail/outbox-pump';
import { startSmtpInbox, type SmtpInbox } from './mail/smtp-inbox';
import { LocalPushService, type LocalSubscription, type ReceivedPush } from './push/push-service';
import { localVapidKeys } from './push/vapid-keys';
import { DatabaseConnectionRefused, startPostgrest, type PostgrestProcess } from './postgrest-process';
import { RealtimeServer, type ChangeEvent } from './realtime/realtime-server';
import { RestClient } from './rest-client';
import { DiskObjectStore, MemoryObjectStore } from './storage/object-store';
import { StorageService } from './storage/storage-api';
import { createSmtpTransport } from '../../netlify/lib/email/smtp-transport';
import { deliverPushes } from '../../netlify/lib/push/deliver-pushes';
import { loopbackPushesAllowed } from '../../netlify/lib/push/push-endpoint';
import { postgrestPushStore } from '../../netlify/lib/push/push-store';
import { readPushEnv } from '../../netlify/lib/push/push-env';
import { deliverTexts } from '../../netlify/lib/sms/deliver-texts';
import { localTwilioEnv, readSmsEnv } from '../../netlify/lib/sms/sms-env';
import { twilioProvider } from '../../netlify/lib/sms/sms-provider';
import { postgrestTextStore } from '../../netlify/lib/sms/text-store';
import { LocalSmsService, type LocalText } from './sms/sms-service';
import { LocalGoCardlessService } from './gocardless/gocardless-service';
import { localGoCardlessEnv } from '../../netlify/lib/direct-debit/gocardless';
import { STUDIO } from '../../src/config/studio';

export interface StackOptions {
  port?: number;
  dataDir?: string;
  seed?: boolean;
  siteUrl?: string;
  databaseUrl?: string;
  quiet?: boolean;
  smtpPort?: number;
  /** Wipe the data folder first (npm run db:reset). */
  reset?: boolean;
  /** Auth's clock in ms (default Date.now): tests move it to cross GoTrue's time windows. */
  authClock?: () => number;
  /** Auth's rate limits instead of config.toml's (a journey run sends more email than a project's hour allows). */
  authRateLimits?: Partial<AuthRateLimits>;
  /**
   * Send what the outboxes queue as it is queued (default true). The load bench turns it off:
   * production's senders are scheduled functions on Netlify, not work on the database's machine,
   * and rendering and delivering each booking's email here would be counted against book_class.
   */
  senders?: boolean;
}

export interface Stack {
  url: string;
  port: number;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  /** Whether this start created the database (and seeded it). */
  created: boolean;
  /** Milliseconds from startStack() to ready. */
  startupMs: number;
  /** The PostgREST child's process id (for memory measurements). */
  postgrestPid: number | undefined;
  inbox: { list(): Email[]; clear(): void };
  /**
   * The local push service (decision 0023): subscribe() makes a browser-less subscription whose
   * keys it keeps; list() what it received at its endpoints, decrypted (newest first).
   */
  pushes: {
    subscribe(applicationServerKey?: string): LocalSubscription & { id: string };
    unsubscribe(id: string): boolean;
    list(): ReceivedPush[];
    clear(): void;
  };
  /** Texts the stack's own Twilio accepted (newest first; also at /sms). */
  texts: { list(): LocalText[]; clear(): void };
  /** The VAPID public key browsers subscribe with (VAPID_PUBLIC_KEY, or the dev pair of the data folder). */
  vapidPublicKey: string;
  /** SMTP_URL of the local mail server. */
  smtpUrl: string;
  /**
   * The environment of the Netlify functions it hosts (its URL and keys, SITE_URL, SMTP_URL, the
   * VAPID pair), which it also sets in process.env: give it to a process that acts as them beside
   * the stack, as the journeys do for `npm run jobs`.
   */
  functionsEnv: Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

/** The From address of everything the local stack sends (production sets MAIL_FROM). */
export const LOCAL_MAIL_FROM = `${STUDIO.name} <${STUDIO.email}>`;

/** The port or the data folder is taken by another running stack (message says which and what to do). */
export class StackInUseError extends Error {}

/**
 * One process per PGlite data folder: two would corrupt it. Returns a release function.
 * A lock left by a process that no longer runs is taken over. (`npm run backup`/`restore` take it too.)
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = `${dataDir}/stack.lock`;
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8'));
    let alive = false;
    try {
      alive = pid > 0 && pid !== process.pid && process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (alive) {
      throw new StackInUseError(
        `The local database in ${dataDir} is in use by another local stack (process ${pid}). Stop it first ` +
          '(Ctrl-C in its terminal), or set SUPABASE_LOCAL_DATA_DIR to another folder.',
      );
    }
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}

/** The keys in .env.example are used when they verify with the secret; otherwise fresh ones are signed. */
async function apiKeys(jwt: JwtKeys, env: Record<string, string>) {
  const derived = await jwt.apiKeys();
  const anon = env.VITE_SUPABASE_ANON_KEY ?? env.SUPABASE_ANON_KEY;
  const service = env.SUPABASE_SERVICE_ROLE_KEY;
  return {
    anonKey: (await jwt.verify(anon))?.role === 'anon' ? anon! : derived.anonKey,
    serviceRoleKey: (await jwt.verify(service))?.role === 'service_role' ? service! : derived.serviceRoleKey,
  };
}

function listen(server: ReturnType<typeof createGateway>, port: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new StackInUseError(
            `Port ${port} on 127.0.0.1 is already in use (another "npm run dev" or "npm run backend", or the Supabase CLI?). ` +
              'Stop it, or set SUPABASE_LOCAL_PORT to another port.',
          ),
        );
      } else reject(error);
    });
    server.listen(port, '127.0.0.1', () => resolvePort((server.address() as AddressInfo).port));
  });
}

const withRateLimits = (config: AuthConfig, limits: Partial<AuthRateLimits> | undefined): AuthConfig =>
  limits ? { ...config, rateLimits: { ...config.rateLimits, ...limits } } : config;

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const started = Date.now();
  const env = readLocalEnv();
  const jwtSecret = env.SUPABASE_JWT_SECRET;
  if (!jwtSecret || jwtSecret.length < 32) throw new Error('SUPABASE_JWT_SECRET must be set (at least 32 characters).');
  const jwt = new JwtKeys(jwtSecret);
  const { anonKey, serviceRoleKey } = await apiKeys(jwt, env);
  const requestedPort = options.port ?? Number(env.SUPABASE_LOCAL_PORT ?? 54321);
  const dataDir = localDataDir(options.dataDir ?? env.SUPABASE_LOCAL_DATA_DIR);
  const siteUrl = (options.siteUrl ?? env.SITE_URL ?? 'http://127.0.0.1:5173').replace(/\/$/, '');
  const databaseUrl = options.databaseUrl ?? env.DATABASE_URL;

  let url = '';
  let postgrest: PostgrestProcess | null = null;
  const inbox = new Inbox();
  // The mail server first: every email, the outbox's and auth's, reaches the inbox through SMTP.
  const smtpPort = options.smtpPort ?? (options.port === 0 ? 0 : Number(env.SUPABASE_LOCAL_SMTP_PORT ?? 54325));
  const smtp: SmtpInbox = await startSmtpInbox(inbox, { port: smtpPort }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    throw new StackInUseError(
      `Port ${smtpPort} on 127.0.0.1 (the local mail server) is already in use, probably by another local stack. ` +
        'Stop it, or set SUPABASE_LOCAL_SMTP_PORT to another port.',
    );
  });
  const transport = createSmtpTransport(smtp.url);
  const rest = new RestClient(() => postgrest?.url ?? 'http://127.0.0.1:1', serviceRoleKey);
  const realtime = new RealtimeServer({ jwt, rest });
  const auth = new AuthService({
    rest,
    jwt,
    mailer: new AuthMailer(() => transport, LOCAL_MAIL_FROM),
    apiUrl: () => url,
    siteUrl,
    config: withRateLimits(readAuthConfig(), options.authRateLimits),
    now: options.authClock,
  });
  const store = dataDir === 'memory' ? new MemoryObjectStore() : new DiskObjectStore(`${dataDir}/storage`);
  // The test payment provider keeps its checkouts beside the database (shared with `npm run jobs`).
  if (dataDir !== 'memory') process.env.TEST_PAYMENTS_FILE ??= `${dataDir}/test-payments.json`;
  const storage = new StorageService({ rest, jwt, store, anonKey, serviceRoleKey });
  // Emails the database queued (bookings, cancellations, promotions, reminders, Contact Us) go out
  // through the production sender to the local mail server.
  const outbox = new OutboxPump({
    postgrestUrl: () => postgrest?.url ?? null,
    serviceRoleKey,
    deliver: emailDelivery(transport, LOCAL_MAIL_FROM, siteUrl),
    what: 'notifications outbox',
  });
  // Pushes the database queued go out through the production sender, signed with the stack's
  // VAPID keys (generated into the data folder when none are set).
  const vapid = localVapidKeys(env, dataDir);
  const pushService = new LocalPushService(() => url, vapid.publicKey);
  const pushes = new OutboxPump({
    postgrestUrl: () => postgrest?.url ?? null,
    serviceRoleKey,
    deliver: (db, now) =>
      deliverPushes({
        store: postgrestPushStore(db),
        vapid: readPushEnv({ ...env, VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey }),
        now,
        // The stack's own push service is on loopback (its database is too).
        allowLoopback: loopbackPushesAllowed(db.url),
      }),
    what: 'push outbox',
  });
  // Texts the database queued go out through the production sender and Twilio client, to the
  // stack's own Twilio (supabase/local/sms; texts at /sms).
  const smsService = new LocalSmsService();
  const texts = new OutboxPump({
    postgrestUrl: () => postgrest?.url ?? null,
    serviceRoleKey,
    deliver: (db, now) =>
      deliverTexts({
        store: postgrestTextStore(db),
        provider: twilioProvider(readSmsEnv(localTwilioEnv(url, env))),
        now,
      }),
    what: 'texts',
  });
  // Stopped pumps never run: the rows stay queued (StackOptions.senders).
  if (options.senders === false) void Promise.all([outbox.stop(), pushes.stop(), texts.stop()]);
  const wakeSenders = () => {
    outbox.wake();
    pushes.wake();
    texts.wake();
  };
  // Direct Debit through the stack's own GoCardless (supabase/local/gocardless; controls at /gocardless).
  const goCardless = new LocalGoCardlessService(() => url);
  const functions = new FunctionsHost(`${repoRoot}netlify/functions`, () => url);
  installNetlifyGlobal();

  let ready = false;
  const server = createGateway({
    jwt,
    auth,
    storage,
    realtime,
    functions,
    inbox,
    pushService,
    smsService,
    goCardless,
    postgrestUrl: () => postgrest?.url ?? null,
    isReady: () => ready,
  });
  // Listen first: a port clash is reported before the slower database start. Until every part
  // is up the gateway answers 503 with Retry-After (see gateway.ts).
  let port: number;
  try {
    port = await listen(server, requestedPort);
  } catch (error) {
    transport.close();
    await smtp.stop();
    throw error;
  }
  url = `http://127.0.0.1:${port}`;
  // What the Netlify functions read, here and in a process beside the stack acting as them (the
  // journeys hand it to `npm run jobs`): one record, so both reach this stack and sign pushes with
  // its VAPID pair, which a memory stack keeps nowhere else.
  const functionsEnv = {
    // The functions' checkout returns and calendar-feed links go to the site this stack serves
    // (they ignored SITE_PORT / SITE_URL and pointed at :5173).
    SITE_URL: siteUrl,
    SUPABASE_URL: url,
    SUPABASE_ANON_KEY: anonKey,
    SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey,
    SMTP_URL: smtp.url,
    MAIL_FROM: LOCAL_MAIL_FROM,
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    // Texts through the stack's own Twilio, unless real Twilio keys are set.
    ...localTwilioEnv(url, env),
    // Direct Debit through the stack's own GoCardless, unless a real access token is set.
    ...localGoCardlessEnv(url, env),
  };
  Object.assign(process.env, functionsEnv);

  const onChange = (payload: string) => {
    let change: ChangeEvent;
    try {
      change = JSON.parse(payload) as ChangeEvent;
    } catch {
      return;
    }
    void realtime.enqueue(change);
  };

  let host: DatabaseHost | null = null;
  let unlock = () => {};
  try {
    if (!databaseUrl && dataDir !== 'memory') unlock = lockDataDir(dataDir);
    const seed = options.seed ?? true;
    if (databaseUrl) {
      const { startPostgresHost } = await import('./postgres-host');
      host = await startPostgresHost({ databaseUrl, postgrestUri: env.PGRST_DB_URI, seed, onChange, onOutbox: wakeSenders });
    } else {
      host = await startPgliteHost({
        dataDir: dataDir === 'memory' ? 'memory' : `${dataDir}/pglite`,
        seed,
        reset: options.reset,
        onChange,
        onOutbox: wakeSenders,
      });
    }
    const postgrestOn = (dbUri: string) =>
      startPostgrest({
        dbUri,
        jwtSecret,
        schemas: ['public', 'storage', GATEWAY_SCHEMA],
        singleSession: host!.singleSession,
        env,
        quiet: options.quiet,
      });
    postgrest = await postgrestOn(host.dbUri).catch(async (error: unknown) => {
      // The single-session socket's one slot was taken by a stray client: once more on a new port.
      if (!(error instanceof DatabaseConnectionRefused) || !host?.reopen) throw error;
      return postgrestOn(await host.reopen());
    });
  } catch (error) {
    await outbox.stop();
    await pushes.stop();
    await new Promise<void>((r) => server.close(() => r()));
    await postgrest?.stop();
    await host?.stop();
    transport.close();
    await smtp.stop();
    unlock();
    throw error;
  }

  // Anything queued while the stack was down (or before PostgREST was up) goes out now.
  wakeSenders();
  ready = true;

  const db = host;
  let stopped = false;
  return {
    url,
    port,
    anonKey,
    serviceRoleKey,
    jwtSecret,
    created: db.created,
    startupMs: Date.now() - started,
    postgrestPid: postgrest.pid,
    inbox: { list: () => inbox.list(), clear: () => inbox.clear() },
    pushes: {
      subscribe: (applicationServerKey) => pushService.subscribe(applicationServerKey),
      unsubscribe: (id) => pushService.unsubscribe(id),
      list: () => pushService.list(),
      clear: () => pushService.clear(),
    },
    texts: { list: () => smsService.list(), clear: () => smsService.clear() },
    vapidPublicKey: vapid.publicKey,
    functionsEnv,
    smtpUrl: smtp.url,
    async stop() {
      if (stopped) return;
      stopped = true;
      await outbox.stop();
      await pushes.stop();
      await texts.stop();
      await realtime.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await postgrest?.stop();
      await db.stop();
      transport.close();
      await smtp.stop();
      unlock();
    },
  };
}
