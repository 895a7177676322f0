import { createHash } from 'node:crypto';
import { EARLY_CLICKS_GLOBAL } from '../src/app/early-clicks';

/**
 * Loads the app's whole stylesheet and starts its entry module once the page has loaded or the
 * visitor reaches for a control (a classic script: it can read its own tag). A button pressed
 * before the app is live is held and pressed again by the app once it has hydrated
 * (src/app/early-clicks.ts); links work natively.
 *
 * A disclosure button (`aria-expanded`, with `aria-controls` naming a panel shown and hidden by
 * its `hidden` attribute: the header's phone menu) is not held: it opens and closes its panel at
 * once, the app's code being seconds away on a phone, and the click goes no further, so React
 * never sees it. The app takes over the state on screen as it starts
 * (src/components/layout/use-menu-toggle.ts). These few lines are on `/`, whose HTML must fit the
 * first round trip (decision 0014): the reasons live here, not in the inlined source.
 */
export const LOADER_SOURCE = `(function () {
  var tag = document.currentScript;
  var entry = tag && tag.getAttribute('data-entry');
  var stylesheet = tag && tag.getAttribute('data-stylesheet');
  var early = (window.${EARLY_CLICKS_GLOBAL} = { targets: [], hydrated: false });
  var started = false;
  function start() {
    if (started) return;
    started = true;
    // The page inlines only the CSS its own HTML uses; the app's screens need the whole sheet,
    // requested first so that it is in before the app's code (and the content it fetches).
    if (stylesheet) {
      var link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = stylesheet;
      document.head.appendChild(link);
    }
    var script = document.createElement('script');
    script.type = 'module';
    script.src = entry;
    document.head.appendChild(script);
  }
  // After load, the first contentful paint, and the images in view decoded and painted: the
  // app's code must not compete with the page's largest paint (measured: fetched earlier, it did).
  var loaded = document.readyState === 'complete';
  var painted = false;
  function startAfterPaint() {
    if (!loaded || !painted) return;
    var inView = Array.prototype.filter.call(document.images, function (img) {
      return img.complete && img.getBoundingClientRect().top < window.innerHeight;
    });
    Promise.all(inView.map(function (img) { return img.decode().catch(function () {}); })).then(function () {
      requestAnimationFrame(function () { setTimeout(start, 0); });
    });
  }
  window.addEventListener('load', function () { loaded = true; startAfterPaint(); }, { once: true });
  try {
    new PerformanceObserver(function (list, observer) {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      painted = true;
      startAfterPaint();
    }).observe({ type: 'paint', buffered: true });
  } catch (e) {
    painted = true; // no paint timing in this browser: load alone decides
    startAfterPaint();
  }
  // A visitor reaching for a control starts the app at once.
  ['pointerdown', 'keydown', 'touchstart'].forEach(function (type) {
    window.addEventListener(type, start, { once: true, passive: true, capture: true });
  });
  document.addEventListener('click', function (event) {
    if (early.hydrated) return;
    var button = event.target instanceof Element ? event.target.closest('button') : null;
    if (!button || button.disabled) return;
    event.preventDefault();
    var panel = button.hasAttribute('aria-expanded') && document.getElementById(button.getAttribute('aria-controls'));
    if (panel) {
      event.stopPropagation();
      panel.hidden = !panel.hidden;
      button.setAttribute('aria-expanded', String(!panel.hidden));
    } else early.targets = [button];
    start();
  }, true);
})();
`;

/** The CSP source that allows the loader inline (netlify.toml script-src; a test keeps them equal). */
export const LOADER_CSP_HASH = `'sha256-${createHash('sha256').update(LOADER_SOURCE).digest('base64')}'`;
