/**
 * Build-time rendering of the public routes: scripts/prerender.ts renders each to HTML
 * that src/main.tsx then hydrates with the same tree. Rendered as a signed-out visitor with an
 * empty query cache, exactly the state the browser's first render starts from.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { AppProvider } from './app/provider';
import { AppRoutes } from './app/app-routes';
import { loadRouteModules } from './app/router';

export async function render(url: string): Promise<string> {
  const location = new URL(url, 'http://prerender.local');
  // The screens load first, as in the browser before hydrating: a suspended screen would render its fallback.
  await loadRouteModules(location);
  return renderToString(
    <StrictMode>
      <AppProvider>
        <StaticRouter location={location.pathname + location.search}>
          <AppRoutes />
        </StaticRouter>
      </AppProvider>
    </StrictMode>,
  );
}
