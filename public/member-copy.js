/*
 * A returning member's page painted at once (decision 0112). The Workbox worker (dist/sw.js)
 * loads this file with importScripts (vite.config.ts), before its own routes, so this listener
 * answers navigations to the member's three daily pages first.
 *
 * The page keeps the HTML it last rendered with fresh data, per page, in the cache below
 * (src/app/pwa/page-copy.ts: only once GoTrue has confirmed the session; removed at Log Out and
 * when a stored session is refused). A navigation to that page is answered at once with the
 * precached app shell carrying that HTML, shown (inert) until the app has rendered the same page
 * and takes its place (src/main.tsx). Only a copy the deployment in this worker rendered is
 * painted. Without one it is what Workbox does for every other page: the network, and after 4 s
 * or without one the precached shell.
 */
(function (scope) {
  var CACHE = 'member-page-copies-v1';
  var PAGES = ['/dashboard', '/my-schedule', '/mybookings'];
  /** As the saved data (src/app/pwa/offline-snapshot.ts): older, classes and bookings have moved on. */
  var MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
  var NETWORK_TIMEOUT_MS = 4000;
  var ROOT = '<div id="root"></div>';

  function shell() {
    // The precache stores the shell under its URL plus a revision parameter.
    return caches.match('/app-shell.html', { ignoreSearch: true });
  }

  function fromNetwork(request) {
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () {
        reject(new Error('The network did not answer in time'));
      }, NETWORK_TIMEOUT_MS);
      fetch(request).then(
        function (response) {
          clearTimeout(timer);
          resolve(response);
        },
        function (error) {
          clearTimeout(timer);
          reject(error);
        },
      );
    }).catch(function () {
      return shell().then(function (response) {
        return response || Response.error();
      });
    });
  }

  function escapeAttribute(value) {
    return String(value).replace(/[&"<>]/g, function (c) {
      return { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' }[c];
    });
  }

  function copyOrNetwork(request, path) {
    return caches
      .open(CACHE)
      .then(function (cache) {
        return cache.match(path);
      })
      .then(function (copy) {
        var savedAt = copy ? Number(copy.headers.get('x-saved-at')) : NaN;
        var user = copy && copy.headers.get('x-user');
        var entry = copy && copy.headers.get('x-entry');
        if (!copy || !user || !entry || !(Date.now() - savedAt < MAX_AGE_MS)) return fromNetwork(request);
        // Only a copy the current deployment rendered: its code is in this worker's precache (an
        // older one's markup would meet newer styles and code).
        return Promise.all([shell(), caches.match(entry, { ignoreSearch: true })]).then(function (found) {
          var template = found[0];
          if (!template || !found[1]) return fromNetwork(request);
          return Promise.all([template.text(), copy.text()]).then(function (texts) {
            var html = texts[0];
            if (html.indexOf(ROOT) === -1) return fromNetwork(request);
            var page =
              '<div id="member-copy" inert data-user="' + escapeAttribute(user) + '">' + texts[1] + '</div><div id="root" hidden></div>';
            // The shell's own headers (its security policy among them), as the site served it.
            var headers = new Headers(template.headers);
            headers.set('content-type', 'text/html; charset=utf-8');
            return new Response(
              html.replace(ROOT, function () {
                return page;
              }),
              { status: 200, headers: headers },
            );
          });
        });
      })
      .catch(function () {
        return fromNetwork(request);
      });
  }

  scope.addEventListener('fetch', function (event) {
    var request = event.request;
    if (request.mode !== 'navigate' || request.method !== 'GET') return;
    var url = new URL(request.url);
    if (url.origin !== scope.location.origin || url.search || PAGES.indexOf(url.pathname) === -1) return;
    event.respondWith(copyOrNetwork(request, url.pathname));
  });
})(self);
