import { Spinner } from '@/components/ui/spinner';

/** What a route shows while its screen's code is still downloading on the first load. */
export function RouteFallback() {
  return <Spinner label="Loading" />;
}
