import type { ReactElement } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProvider } from '@/app/provider';
import { routes as appRoutes } from '@/app/router';
import { queryConfig } from '@/lib/react-query';

/** The app's cache settings, without retries (a test's refused request must show its error at once). */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { ...queryConfig.queries, retry: false, gcTime: Infinity }, mutations: queryConfig.mutations },
  });
}

/**
 * Renders the real app (providers + router) at a URL, as a person would arrive there.
 * Pass `routes` to render a single screen inside the providers instead of the whole tree.
 * Each render gets an empty query cache unless `queryClient` is given (to test revisits).
 */
export function renderApp(url = '/', options: { routes?: RouteObject[]; queryClient?: QueryClient } = {}) {
  const router = createMemoryRouter(options.routes ?? appRoutes, { initialEntries: [url] });
  const queryClient = options.queryClient ?? createTestQueryClient();
  const result = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router, queryClient };
}

/** Renders one element at a path inside the providers and a router. */
export function renderWithProviders(ui: ReactElement, url = '/', options: { queryClient?: QueryClient } = {}) {
  return renderApp(url, { routes: [{ path: '*', element: ui }], ...options });
}
