import { PageHeading } from '@/features/admin/components/page-heading';
import { CoverPanel } from '@/features/admin/components/cover-panel';
import { EmbedSnippetPanel } from '@/features/admin/components/embed-snippet-panel';
import { DataRetentionPanel } from '@/features/admin/components/data-retention-panel';
import { MeetingPointsPanel } from '@/features/admin/components/meeting-points-panel';
import { ReviewRequestsPanel } from '@/features/admin/components/review-requests-panel';
import { OffersAdmin } from '@/features/offers/components/offers-admin';

/**
 * /admin/settings: where classes meet (decision 0055), cover (0087), review requests (0088), the
 * timetable for other sites (0089), offers and referrals (0083, 0084) and how long personal data is kept (0097).
 */
export function AdminSettingsRoute() {
  return (
    <>
      <PageHeading
        title="Settings"
        subtitle="Where classes meet, cover, review requests, your timetable on other sites, offers, and how long personal data is kept."
      />
      <MeetingPointsPanel />
      <CoverPanel />
      <ReviewRequestsPanel />
      <EmbedSnippetPanel />
      <OffersAdmin />
      <DataRetentionPanel />
    </>
  );
}
