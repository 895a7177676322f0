import { SystemHealthPanel } from '@/features/admin/components/system-health-panel';

/** /admin/system-health: scheduled jobs' runs and the watchdog's alerts (decision 0046). */
export function AdminSystemHealthRoute() {
  return <SystemHealthPanel />;
}
