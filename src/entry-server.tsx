/**
 * Build-time rendering of the public routes (issue 17): scripts/prerender.ts renders each to HTML
 * that src/main.tsx then hydrates with the same tree. Rendered as a signed-out visitor with an
 * empty query cache, exactly the state the browser's first render starts from.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { AppProvider } from './app/provider';
import { routes } from './app/router';

export async function render(url: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(url, 'http://prerender.local')));
  if (context instanceof Response) throw new Error(`${url}: the router answered ${context.status}, not a page`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <AppProvider>
        {/* No hydration data script: the CSP allows no inline script, and no route has a loader. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProvider>
    </StrictMode>,
  );
}
