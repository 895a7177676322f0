import { FreeTrialPanel } from '@/features/auth/components/free-trial-panel';

/** /free-trial: Your First Class Is On Us. */
export function FreeTrialRoute() {
  return <FreeTrialPanel />;
}
