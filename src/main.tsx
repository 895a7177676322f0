import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProvider } from './app/provider';
import { AppRoutes } from './app/app-routes';
import { loadRouteModules } from './app/router';
import { needsSupabaseNow, storedSessionUser } from './lib/supabase-loader';
import './index.css';

const container = document.getElementById('root')!;
// The service worker painted the member's last copy of this page (decision 0112, page-copy.ts
// PAGE_COPY_ID): the app renders beside it, hidden, and takes its place once it shows the page.
if (document.getElementById('member-copy'))
  void import('./app/pwa/page-copy').then((m) => m.revealAppOverCopy(container, storedSessionUser()?.id ?? null));
// A public route arrives prerendered (scripts/prerender.ts): its lazy screens load before the
// first render, so that render is the HTML already on screen and hydrates it. Every other route
// arrives as the empty shell and renders from scratch.
const prerendered = container.hasChildNodes();
if (prerendered) await loadRouteModules(window.location);
// Every other route starts its screens' code now, beside the session and the Supabase client:
// otherwise a member screen's chunk would start only once the session is read, and an admin
// screen's only once the admin check has passed (a chain of round trips before the first data).
else void loadRouteModules(window.location).catch(() => undefined);
// A signed-in member's saved copy of their data (decision 0028). With no connection
// (opened from the home screen) it is in the cache before the first screen asks for it; online it
// goes in while the screen's code downloads, so the screen paints from it and revalidates.
if (needsSupabaseNow()) {
  // The auth provider observes the member's row once the session is read, through a module of its
  // own: fetched now, it is in by then instead of one more step between the session and the paint.
  void import('./lib/auth/observe-own-member').catch(() => undefined);
  const start = import('./app/pwa/offline-start');
  const copied = (navigator.onLine ? start.then((m) => m.paintFromCopy()) : start.then((m) => m.startOffline())).catch(() => undefined);
  if (!navigator.onLine) await copied;
  // A signed-in screen's first reads start now too, beside its code (app/first-data.ts), once the
  // copy is in: a returning member's row is in it, so their reads need not wait for the row.
  if (!prerendered)
    void Promise.all([copied, import('./app/first-data')])
      .then(([, m]) => m.startFirstReads(window.location.pathname))
      .catch(() => undefined);
}
const app = (
  <StrictMode>
    <AppProvider>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  </StrictMode>
);
// As a transition, hydration yields to the browser every few milliseconds instead of holding the
// main thread for the whole page (the page is already on screen; a press meanwhile is replayed).
if (prerendered) startTransition(() => void hydrateRoot(container, app));
else createRoot(container).render(app);
