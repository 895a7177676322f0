/*
 * Web Push in the service worker (decision 0023). The Workbox worker (dist/sw.js, built
 * by vite-plugin-pwa's generateSW) loads this file with importScripts (vite.config.ts), so it is
 * served from the site's own origin like the worker: no inline script, and nothing of it reaches
 * a visitor's page (the worker is registered on members' pages only).
 *
 * A push carries JSON from netlify/lib/push/push-payload.ts: { title, body, path, tag, kind }.
 * It is shown as a notification; a click focuses an open window of the app on that page, or opens
 * one. Only a path of this site is ever opened.
 */
(function (scope) {
  var FALLBACK_PATH = '/dashboard';
  var ICON = '/icons/icon-192.png';

  function sitePath(value) {
    return typeof value === 'string' && /^\/(?!\/)/.test(value) ? value : FALLBACK_PATH;
  }

  function readPayload(data) {
    if (!data) return {};
    try {
      var parsed = data.json();
      return parsed && typeof parsed === 'object' ? parsed : {};
    } catch (error) {
      return { body: data.text() };
    }
  }

  scope.addEventListener('push', function (event) {
    var payload = readPayload(event.data);
    var title = typeof payload.title === 'string' && payload.title ? payload.title : 'Finer Fitness';
    var options = {
      body: typeof payload.body === 'string' ? payload.body : '',
      icon: ICON,
      badge: ICON,
      lang: 'en-GB',
      data: { path: sitePath(payload.path), kind: typeof payload.kind === 'string' ? payload.kind : null },
    };
    if (typeof payload.tag === 'string' && payload.tag) {
      // A later push about the same class replaces the earlier one, and still alerts.
      options.tag = payload.tag;
      options.renotify = true;
    }
    event.waitUntil(scope.registration.showNotification(title, options));
  });

  scope.addEventListener('notificationclick', function (event) {
    event.notification.close();
    var path = sitePath(event.notification.data && event.notification.data.path);
    var url = new URL(path, scope.location.origin).href;
    event.waitUntil(
      scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
        for (var i = 0; i < windows.length; i += 1) {
          var client = windows[i];
          if (new URL(client.url).origin !== scope.location.origin) continue;
          if (client.url === url) return client.focus();
          if ('navigate' in client) {
            return client.navigate(url).then(function (navigated) {
              return (navigated || client).focus();
            });
          }
        }
        return scope.clients.openWindow(url);
      }),
    );
  });
})(self);
