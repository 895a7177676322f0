import { createServer } from 'node:net';
import { cachedBuildUrl, ensureBuild } from './build';
import { loadStartStack, type InboxEmail, type LocalStack, type StackApi } from './local-stack';
import { freePort, startStaticServer, type StaticServer } from '../../../scripts/static-server';

export interface ServedApp {
  origin: string;
  /** The served build's folder. */
  dist: string;
  stack: LocalStack;
  site: StaticServer;
  stop(): Promise<void>;
}

async function isFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * The production build served like Netlify serves it, talking to a fresh in-memory local stack
 * with the demo seed. The stack's port is baked into the build, so the port of the previous e2e
 * build is reused when it is free (no rebuild), else a random free one.
 */
export async function serveApp(log: (line: string) => void = console.log): Promise<ServedApp> {
  const loaded = await loadStartStack();
  if ('missing' in loaded) throw new Error(loaded.missing);
  const cached = cachedBuildUrl();
  const cachedPort = cached ? Number(new URL(cached).port) : 0;
  const stackPort = cachedPort && (await isFree(cachedPort)) ? cachedPort : await freePort();
  const supabaseUrl = `http://127.0.0.1:${stackPort}`;
  const dist = ensureBuild(supabaseUrl, log);
  const site = await startStaticServer(dist);
  let stack: LocalStack;
  const started = Date.now();
  // The Netlify functions run inside the stack's process and build return URLs from SITE_URL.
  process.env.SITE_URL = site.origin;
  try {
    // Any free SMTP port: journeys read the inbox over HTTP, and a dev stack may hold the default one.
    // One run of every journey signs up and resets more accounts than config.toml's 30 auth emails an
    // hour allow; the limit itself is held by gotrue-parity.test.ts.
    stack = await loaded.startStack({
      port: stackPort,
      smtpPort: 0,
      dataDir: 'memory',
      seed: true,
      siteUrl: site.origin,
      quiet: true,
      authRateLimits: { emailSentPerHour: 1000 },
    });
  } catch (err) {
    await site.close();
    throw err;
  }
  log(`local stack on ${stack.url} (started in ${((Date.now() - started) / 1000).toFixed(1)} s), site on ${site.origin}`);
  site.setFunctionsTarget(stack.url);
  return {
    origin: site.origin,
    dist,
    stack,
    site,
    async stop() {
      await site.close();
      await stack.stop();
    },
  };
}

/**
 * The journeys' test workers are separate processes: the global setup hands them the served app
 * through these variables (workers inherit the runner's environment), and they reach the stack
 * and its inbox over HTTP.
 */
const VARS = {
  origin: 'E2E_ORIGIN',
  url: 'E2E_SUPABASE_URL',
  anonKey: 'E2E_ANON_KEY',
  serviceRoleKey: 'E2E_SERVICE_ROLE_KEY',
  functionsEnv: 'E2E_FUNCTIONS_ENV',
} as const;

export function publishApp(app: ServedApp): void {
  process.env[VARS.origin] = app.origin;
  process.env[VARS.url] = app.stack.url;
  process.env[VARS.anonKey] = app.stack.anonKey;
  process.env[VARS.serviceRoleKey] = app.stack.serviceRoleKey;
  process.env[VARS.functionsEnv] = JSON.stringify(app.stack.functionsEnv);
}

function published(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the journeys with \`npm run test:e2e\` (its global setup serves the app).`);
  return value;
}

export const publishedOrigin = (): string => published(VARS.origin);

export function publishedStack(): StackApi {
  const url = published(VARS.url);
  return {
    url,
    anonKey: published(VARS.anonKey),
    serviceRoleKey: published(VARS.serviceRoleKey),
    functionsEnv: JSON.parse(published(VARS.functionsEnv)) as Record<string, string>,
    inbox: {
      async list() {
        const res = await fetch(`${url}/inbox.json`);
        if (!res.ok) throw new Error(`GET /inbox.json answered ${res.status}`);
        return (await res.json()) as InboxEmail[];
      },
    },
  };
}
