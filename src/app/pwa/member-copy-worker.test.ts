import { describe, expect, it, vi } from 'vitest';
import source from '../../../public/member-copy.js?raw';

// public/member-copy.js, the service worker's answer to the member's daily pages (decision 0112),
// run against a fake worker scope and Cache Storage. The journey (tests/e2e/journeys/pwa.spec.ts)
// runs it in Chromium's real worker.

const ORIGIN = 'https://studio.example';
const SHELL =
  '<!doctype html><html lang="en-GB"><head><script type="module" src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>';
const SHELL_HEADERS = { 'content-type': 'text/html', 'content-security-policy': "default-src 'self'" };
const DAY = 24 * 60 * 60 * 1000;

type FetchEvent = { request: Request; respondWith(response: Promise<Response>): void; waitUntil(p: Promise<unknown>): void };

type Copy = { html: string; user: string; savedAt: number; entry: string };
/** What this worker's precache holds of the app's code. */
const PRECACHED = new Set(['/assets/index-1.js']);

function worker({ copies = {}, network = vi.fn<typeof fetch>() }: { copies?: Record<string, Copy>; network?: typeof fetch } = {}) {
  const listeners: Record<string, (event: FetchEvent) => void> = {};
  const stored = new Map(Object.entries(copies));
  const found = (response: Response | undefined) => Promise.resolve(response);
  const caches = {
    open: (name: string) =>
      Promise.resolve({
        match: (path: string) => {
          const copy = name === 'member-page-copies-v1' ? stored.get(path) : undefined;
          const headers = copy && { 'x-user': copy.user, 'x-entry': copy.entry, 'x-saved-at': String(copy.savedAt) };
          return found(copy && new Response(copy.html, { headers }));
        },
      }),
    match: (url: string, options: { ignoreSearch?: boolean }) => {
      if (!options.ignoreSearch) return found(undefined);
      if (url === '/app-shell.html') return found(new Response(SHELL, { headers: SHELL_HEADERS }));
      return found(PRECACHED.has(url) ? new Response('/* the code */') : undefined);
    },
  };
  const scope = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: (event: FetchEvent) => void) => (listeners[type] = listener),
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('self', 'caches', 'fetch', source)(scope, caches, network);

  /** A navigation: the worker's response, or null when it leaves the request to Workbox's routes. */
  async function navigate(path: string, mode: RequestMode = 'navigate'): Promise<Response | null> {
    const answers: Promise<Response>[] = [];
    const request = { url: `${ORIGIN}${path}`, mode, method: 'GET' } as Request;
    listeners.fetch!({
      request,
      respondWith: (response) => void answers.push(response),
      waitUntil: () => undefined,
    });
    return answers.length ? await answers[0]! : null;
  }
  return { navigate, network };
}

const fresh: Copy = {
  html: '<header>Sam Member</header><main><h1>Welcome back, Sam</h1></main>',
  user: 'user-1',
  savedAt: Date.now() - 60_000,
  entry: '/assets/index-1.js',
};

describe('the worker’s answer to a member’s daily page', () => {
  it('paints the copy at once inside the shell, with the shell’s headers, the app’s root hidden beside it', async () => {
    const { navigate, network } = worker({ copies: { '/dashboard': fresh } });
    const response = (await navigate('/dashboard'))!;
    const html = await response.text();
    expect(html).toContain(
      '<div id="member-copy" inert data-user="user-1"><header>Sam Member</header><main><h1>Welcome back, Sam</h1></main></div><div id="root" hidden></div>',
    );
    expect(html).toContain('<script type="module" src="/assets/index-1.js">');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(network).not.toHaveBeenCalled();
  });

  it('goes to the network without a copy, or with one older than two weeks', async () => {
    const page = new Response('<p>from the site</p>');
    const { navigate, network } = worker({
      copies: { '/mybookings': { ...fresh, savedAt: Date.now() - 15 * DAY } },
      network: vi.fn(() => Promise.resolve(page)),
    });
    expect(await navigate('/my-schedule')).toBe(page);
    expect(await navigate('/mybookings')).toBe(page);
    expect(network).toHaveBeenCalledTimes(2);
  });

  it('without a network and without a copy, answers with the precached shell', async () => {
    const { navigate } = worker({ network: vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))) });
    expect(await (await navigate('/dashboard'))!.text()).toBe(SHELL);
  });

  it('leaves every other request to Workbox', async () => {
    const { navigate } = worker({ copies: { '/dashboard': fresh } });
    expect(await navigate('/schedule')).toBeNull();
    expect(await navigate('/dashboard?session=1')).toBeNull();
    expect(await navigate('/dashboard', 'cors')).toBeNull();
  });

  it('never paints a copy an earlier deployment rendered (its code is no longer precached)', async () => {
    const page = new Response('<p>from the site</p>');
    const { navigate } = worker({
      copies: { '/dashboard': { ...fresh, entry: '/assets/index-0.js' } },
      network: vi.fn(() => Promise.resolve(page)),
    });
    expect(await navigate('/dashboard')).toBe(page);
  });

  it('an attribute cannot be broken out of by the stored user', async () => {
    const { navigate } = worker({ copies: { '/dashboard': { ...fresh, user: '"><script>x</script>' } } });
    const html = await (await navigate('/dashboard'))!.text();
    expect(html).toContain('data-user="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
  });
});
