import { describe, expect, it } from 'vitest';
import { LOADER_SOURCE } from './hydrate-loader';
import { criticalCssOnly, hydrateAfterLoad, pageHtml, staticCopy } from './prerender';

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

  it('starts a page’s app and its whole stylesheet after its first paint through the inline loader, without module preloads', () => {
    const html = hydrateAfterLoad(pageHtml(SHELL, '<p>x</p>', ''), '/assets/index-x.css');
    expect(html).toContain(`<script data-entry="/assets/index-abc.js" data-stylesheet="/assets/index-x.css">${LOADER_SOURCE}</script>`);
    expect(html).not.toContain('modulepreload');
    expect(html).not.toContain('type="module"');
  });

  it('refuses a page with two module entry scripts rather than start only one of them', () => {
    const twoEntries = SHELL.replace(
      '<link rel="modulepreload"',
      '<script type="module" crossorigin src="/assets/shell-def.js"></script>\n<link rel="modulepreload"',
    );
    expect(() => hydrateAfterLoad(pageHtml(twoEntries, '<p>x</p>', ''), '/assets/index-x.css')).toThrow(/2 module entry scripts/);
  });

  it('inlines only the CSS the page’s HTML uses, with its media queries, states and keyframes', async () => {
    const css = [
      ':root{--brand:#0f172a}',
      '.used{color:red}',
      '.unused{color:blue}',
      '.used:hover{color:green}',
      '@media (min-width:48rem){.md\\:used{display:flex}.md\\:unused{display:grid}}',
      '.spin{animation:spin 1s linear infinite}',
      '@keyframes spin{to{transform:rotate(360deg)}}',
      '@keyframes fade{to{opacity:0}}',
      ':where(.space-y-2>:not(:last-child)){margin-block-end:.5rem}',
      '[hidden]:where(:not([hidden=until-found])){display:none!important}',
    ].join('');
    const html = await criticalCssOnly(pageHtml(SHELL, '<ul class="space-y-2"><li class="used md:used spin">a</li><li>b</li></ul>', css));
    const inline = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? '';
    for (const kept of ['--brand', '.used{', '.used:hover', '.md\\:used', '@keyframes spin', '.space-y-2>', '[hidden]'])
      expect(inline).toContain(kept);
    for (const dropped of ['.unused', '.md\\:unused', '@keyframes fade']) expect(inline).not.toContain(dropped);
    expect(html).toContain('<li class="used md:used spin">a</li>');
  });

  it('makes a static copy with no script at all', () => {
    const copy = staticCopy(pageHtml(SHELL, '<p>x</p>', ''));
    expect(copy).not.toMatch(/<script|modulepreload/);
    expect(copy).toContain('<p>x</p>');
  });
});
