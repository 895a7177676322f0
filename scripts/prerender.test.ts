import { describe, expect, it } from 'vitest';
import { LOADER_SOURCE } from './hydrate-loader';
import { hydrateAfterLoad, pageHtml, staticCopy } from './prerender';

const SHELL = `<!doctype html><html><head><title>t</title>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
<link rel="modulepreload" crossorigin href="/assets/paths-1.js">
<link rel="stylesheet" crossorigin href="/assets/index-x.css">
</head><body><div id="root"></div></body></html>`;

describe('prerendered pages', () => {
  it('puts the rendered tree in the root, the CSS inline and React’s resource hints in the head', () => {
    const html = pageHtml(SHELL, '<link rel="preload" as="image" href="/h.webp"/><main><h1>Hi $& there</h1></main>', '.a{color:red}');
    expect(html).toContain('<div id="root"><main><h1>Hi $& there</h1></main></div>');
    expect(html).toContain('<style>.a{color:red}</style>');
    expect(html).not.toContain('rel="stylesheet"');
    expect(html).toMatch(/<link rel="preload" as="image" href="\/h.webp"\/><\/head>/);
  });

  it('refuses a shell without an empty root', () => {
    expect(() => pageHtml('<html><head></head><body></body></html>', '<p/>', '')).toThrow(/empty <div id="root">/);
  });

  it('starts a page’s app after its first paint through the inline loader, without module preloads', () => {
    const html = hydrateAfterLoad(pageHtml(SHELL, '<p>x</p>', ''));
    expect(html).toContain(`<script data-entry="/assets/index-abc.js">${LOADER_SOURCE}</script>`);
    expect(html).not.toContain('modulepreload');
    expect(html).not.toContain('type="module"');
  });

  it('refuses a page with two module entry scripts rather than start only one of them', () => {
    const twoEntries = SHELL.replace('<link rel="modulepreload"', '<script type="module" crossorigin src="/assets/shell-def.js"></script>\n<link rel="modulepreload"');
    expect(() => hydrateAfterLoad(pageHtml(twoEntries, '<p>x</p>', ''))).toThrow(/2 module entry scripts/);
  });

  it('makes a static copy with no script at all', () => {
    const copy = staticCopy(pageHtml(SHELL, '<p>x</p>', ''));
    expect(copy).not.toMatch(/<script|modulepreload/);
    expect(copy).toContain('<p>x</p>');
  });
});
