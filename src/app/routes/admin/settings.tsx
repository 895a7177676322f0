import { PageHeading } from '@/features/admin/components/page-heading';
import { MeetingPointsPanel } from '@/features/admin/components/meeting-points-panel';
import { OffersAdmin } from '@/features/offers/components/offers-admin';

/** /admin/settings: where classes meet, and the studio's offers (promo codes, intro offers, referrals). */
export function AdminSettingsRoute() {
  return (
    <>
      <PageHeading title="Settings" subtitle="Where classes meet, and the studio's offers." />
      <MeetingPointsPanel />
      <OffersAdmin />
    </>
  );
}
