import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProvider } from '@/app/provider';
import { routes as appRoutes } from '@/app/router';

/**
 * Renders the real app (providers + router) at a URL, as a person would arrive there.
 * Pass `routes` to render a single screen inside the providers instead of the whole tree.
 */
export function renderApp(url = '/', options: { routes?: RouteObject[] } = {}) {
  const router = createMemoryRouter(options.routes ?? appRoutes, { initialEntries: [url] });
  const result = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router };
}

/** Renders one element at a path inside the providers and a router. */
export function renderWithProviders(ui: ReactElement, url = '/') {
  return renderApp(url, { routes: [{ path: '*', element: ui }] });
}
