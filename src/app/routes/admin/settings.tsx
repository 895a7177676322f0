import { PageHeading } from '@/features/admin/components/page-heading';
import { CoverPanel } from '@/features/admin/components/cover-panel';
import { EmbedSnippetPanel } from '@/features/admin/components/embed-snippet-panel';
import { MeetingPointsPanel } from '@/features/admin/components/meeting-points-panel';
import { ReviewRequestsPanel } from '@/features/admin/components/review-requests-panel';

/** /admin/settings: where classes meet, cover, review requests and the timetable for other sites. */
export function AdminSettingsRoute() {
  return (
    <>
      <PageHeading title="Settings" subtitle="Where classes meet, cover, review requests and your timetable on other sites." />
      <MeetingPointsPanel />
      <CoverPanel />
      <ReviewRequestsPanel />
      <EmbedSnippetPanel />
    </>
  );
}
