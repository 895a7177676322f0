import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_COPY_CACHE } from '@/lib/browser-storage';
import { COPIED_PAGES, PAGE_COPY_ID, pageCopyHtml, pageCopyKeeper, revealAppOverCopy } from './page-copy';

// Decision 0112: the member's daily page as it last rendered, painted by the worker at the next
// open and replaced by the app once it shows the same page.

const page = (main: string, header = '<header><a href="/dashboard">Sam Member</a></header>') => {
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = `${header}<main>${main}</main>`;
  return root;
};

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the copy of a page', () => {
  it('keeps the page, without what belongs to the moment it was saved', () => {
    const root = page(
      '<h1>Welcome back, Sam</h1><p data-copy-blank>Updated</p><ul><li>Breakfast Club</li></ul>' +
        '<div role="dialog">Add the app?</div><div class="toast">Booking confirmed!</div>',
    );
    const html = pageCopyHtml(root, (element) => element.classList.contains('toast'));
    expect(html).toContain('Welcome back, Sam');
    expect(html).toContain('Breakfast Club');
    expect(html).toContain('<p data-copy-blank=""></p>');
    expect(html).not.toContain('Updated');
    expect(html).not.toContain('Add the app?');
    expect(html).not.toContain('Booking confirmed!');
    expect(root.innerHTML).toContain('Booking confirmed!'); // the page itself is untouched
  });

  it('is not taken while the page loads, fails or has no heading yet', () => {
    const none = () => false;
    expect(pageCopyHtml(page('<h1>My Bookings</h1><div class="animate-spin"></div>'), none)).toBeNull();
    expect(pageCopyHtml(page('<h1>My Bookings</h1><p role="alert">Failed to load bookings</p>'), none)).toBeNull();
    expect(pageCopyHtml(page('<p>Checking your session</p>'), none)).toBeNull();
  });

  it('names the cache and the pages as the worker does', () => {
    const worker = readFileSync('public/member-copy.js', 'utf8');
    expect(worker).toContain(`var CACHE = '${PAGE_COPY_CACHE}';`);
    expect(worker).toContain(`var PAGES = [${COPIED_PAGES.map((p) => `'${p}'`).join(', ')}];`);
    expect(worker).toContain(`'<div id="${PAGE_COPY_ID}" inert data-user="'`);
  });
});

describe('saving the copy', () => {
  /** The cache the page writes to, as the worker will read it. */
  function cacheStorage() {
    const saved = new Map<string, { html: Promise<string>; headers: Headers }>();
    vi.stubGlobal('caches', {
      open: (name: string) =>
        Promise.resolve({
          put: (path: string, response: Response) => {
            if (name === PAGE_COPY_CACHE) saved.set(path, { html: response.text(), headers: response.headers });
            return Promise.resolve();
          },
        }),
    });
    return saved;
  }
  /** The member's dashboard on show, from a build whose entry is /assets/index-1.js. */
  function onDashboard(main: string) {
    document.head.innerHTML = '<script type="module" src="/assets/index-1.js"></script>';
    window.history.replaceState(null, '', '/dashboard');
    const root = page(main);
    document.body.append(root);
    return root;
  }

  it('waits for a part still loading, then keeps the page for this member and this build', async () => {
    vi.useFakeTimers();
    const saved = cacheStorage();
    const root = onDashboard('<h1>Welcome back, Sam</h1><div class="animate-spin"></div>');
    pageCopyKeeper('user-1', () => true).save();
    expect(saved.size).toBe(0);
    root.querySelector('.animate-spin')!.remove();
    await vi.advanceTimersByTimeAsync(1000);
    const copy = saved.get('/dashboard')!;
    expect(await copy.html).toContain('Welcome back, Sam');
    expect(copy.headers.get('x-user')).toBe('user-1');
    expect(copy.headers.get('x-entry')).toBe('/assets/index-1.js');
  });

  it('keeps nothing while the saved data is still being read again, nor of any other page', async () => {
    vi.useFakeTimers();
    const saved = cacheStorage();
    onDashboard('<h1>Welcome back, Sam</h1>');
    const keeper = pageCopyKeeper('user-1', () => false);
    keeper.save();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(saved.size).toBe(0);
    window.history.replaceState(null, '', '/membership');
    pageCopyKeeper('user-1', () => true).save();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(saved.size).toBe(0);
  });
});

describe('the app taking the copy’s place', () => {
  /** The document the worker serves: the copy, then the app's own root, hidden. */
  function served(user: string) {
    document.body.innerHTML =
      `<div id="${PAGE_COPY_ID}" inert data-user="${user}"><header><a href="/dashboard">Sam Member</a></header>` +
      '<main><h1>Welcome back, Sam</h1></main></div><div id="root" hidden></div>';
    return document.getElementById('root')!;
  }
  const copyShown = () => document.getElementById(PAGE_COPY_ID) !== null;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('waits until the app shows the same page, then swaps', async () => {
    const root = served('user-1');
    expect(revealAppOverCopy(root, 'user-1')).toBe(true);
    root.innerHTML = '<header><span>Menu</span></header><main><div class="animate-spin"></div></main>';
    await settle();
    expect(copyShown()).toBe(true);
    expect(root.hidden).toBe(true);
    root.innerHTML = '<header><a href="/dashboard">Sam Member</a></header><main><h1>Welcome back, Sam</h1></main>';
    await settle();
    expect(copyShown()).toBe(false);
    expect(root.hidden).toBe(false);
  });

  it('goes at once when the copy is not the stored session’s, and is removed from the browser', async () => {
    const deleted: string[] = [];
    vi.stubGlobal('caches', { delete: (name: string) => (deleted.push(name), Promise.resolve(true)) });
    try {
      const root = served('user-1');
      revealAppOverCopy(root, null);
      expect(copyShown()).toBe(false);
      expect(root.hidden).toBe(false);
      await settle();
      expect(deleted).toEqual([PAGE_COPY_CACHE]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('does not stay longer than five seconds whatever the app does', () => {
    vi.useFakeTimers();
    const root = served('user-1');
    revealAppOverCopy(root, 'user-1');
    vi.advanceTimersByTime(4999);
    expect(copyShown()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(copyShown()).toBe(false);
    expect(root.hidden).toBe(false);
  });

  it('without a copy there is nothing to do', () => {
    const root = document.createElement('div');
    expect(revealAppOverCopy(root, 'user-1')).toBe(false);
  });
});
