import type { ReactElement } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateFunction, type RouteObject } from 'react-router-dom';
import { AppProvider } from '@/app/provider';
import { AppRoutes } from '@/app/app-routes';
import { queryConfig } from '@/lib/react-query';
import { trackQueryClient } from './live-query-clients';

/** The app's cache settings, without retries (a test's refused request must show its error at once). */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { ...queryConfig.queries, retry: false, gcTime: Infinity }, mutations: queryConfig.mutations },
  });
}

/** What a test reads and does to the router: where the app is, and going somewhere as a link would. */
export interface TestRouter {
  readonly state: { location: Location };
  navigate: (to: string) => Promise<void>;
}

function RouterSpy({ onChange }: { onChange: (location: Location, navigate: NavigateFunction) => void }) {
  onChange(useLocation(), useNavigate());
  return null;
}

/**
 * Renders the real app (providers + router) at a URL, as a person would arrive there.
 * Pass `routes` to render a single screen inside the providers instead of the whole tree.
 * Each render gets an empty query cache unless `queryClient` is given (to test revisits).
 */
export function renderApp(url = '/', options: { routes?: RouteObject[]; queryClient?: QueryClient } = {}) {
  let location: Location | undefined;
  let navigateTo: NavigateFunction | undefined;
  const router: TestRouter = {
    get state() {
      return { location: location! };
    },
    navigate: async (to) => {
      await navigateTo!(to);
    },
  };
  const queryClient = options.queryClient ?? createTestQueryClient();
  trackQueryClient(queryClient);
  const result = render(
    <AppProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <AppRoutes routes={options.routes} />
        <RouterSpy
          onChange={(at, navigate) => {
            location = at;
            navigateTo = navigate;
          }}
        />
      </MemoryRouter>
    </AppProvider>,
  );
  return { ...result, router, queryClient };
}

/** Renders one element at a path inside the providers and a router. */
export function renderWithProviders(ui: ReactElement, url = '/', options: { queryClient?: QueryClient } = {}) {
  return renderApp(url, { routes: [{ path: '*', element: ui }], ...options });
}

/**
 * The real app at a URL as the browser starts it: no query client handed in, so the screens and
 * the session create the app's own (lib/app-query-client.ts), once per test file.
 */
export function renderAppWithoutQueryClient(url = '/') {
  return render(
    <AppProvider>
      <MemoryRouter initialEntries={[url]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProvider>,
  );
}
