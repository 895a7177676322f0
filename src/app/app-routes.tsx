import { Suspense, useLayoutEffect } from 'react';
import { NavigationType, useLocation, useNavigationType, useRoutes, type RouteObject } from 'react-router-dom';
import { AfterHydration } from './after-hydration';
import { routes } from './router';
import { RouteErrorBoundary } from './routes/route-error-boundary';
import { RouteFallback } from './routes/route-fallback';

/** A new page starts at its top; back and forward keep where the browser was. */
function ScrollToTopOnNavigate() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType !== NavigationType.Pop) window.scrollTo(0, 0);
  }, [pathname, navigationType]);
  return null;
}

/**
 * The screens of `routes` (the app's unless given) at the router's location. The fallback shows
 * only while a first screen's code downloads: later navigations are transitions, which keep the
 * current page on screen until the next one is ready.
 */
export function AppRoutes({ routes: tree = routes }: { routes?: RouteObject[] }) {
  const { pathname } = useLocation();
  const screens = useRoutes(tree);
  return (
    <RouteErrorBoundary pathname={pathname}>
      <Suspense fallback={<RouteFallback />}>
        {screens}
        {/* Inside the boundary: React hydrates a Suspense boundary's content after the shell around it. */}
        <AfterHydration />
      </Suspense>
      <ScrollToTopOnNavigate />
    </RouteErrorBoundary>
  );
}
