import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** One section of Admin > Settings: its address (/admin/settings/<slug>), its name in the list, a line on what it holds, its panels. */
export type SettingsSection = {
  slug: string;
  title: string;
  summary: string;
  Panel: LazyExoticComponent<ComponentType>;
};

/** A section whose panels load when it is opened: the forms' libraries stay off the first load (decision 0107). */
const section = (slug: string, title: string, summary: string, load: () => Promise<ComponentType>): SettingsSection => ({
  slug,
  title,
  summary,
  Panel: lazy(() => load().then((Panel) => ({ default: Panel }))),
});

/**
 * Admin > Settings' sections in the order the list shows them (decision 0107). Adding a section
 * is one line here: its slug, its name, what it holds and the component that renders its panels.
 */
export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  section(
    'meeting-points',
    'Meeting points',
    'Places other than the hall where a class meets, and where the timetable’s classes meet.',
    () => import('@/features/admin/components/meeting-points-panel').then((m) => m.MeetingPointsPanel),
  ),
  section('cover', 'Cover', 'Coaches’ requests for cover and who offered to take the class.', () =>
    import('@/features/admin/components/cover-panel').then((m) => m.CoverPanel),
  ),
  section('review-requests', 'Review requests', 'The email asking members for a review after their classes.', () =>
    import('@/features/admin/components/review-requests-panel').then((m) => m.ReviewRequestsPanel),
  ),
  section('timetable-on-other-sites', 'Timetable on other sites', 'The snippet that shows your timetable on another website.', () =>
    import('@/features/admin/components/embed-snippet-panel').then((m) => m.EmbedSnippetPanel),
  ),
  section('offers', 'Offers', 'Promo codes, intro offers and the referral reward, with what each was used for.', () =>
    import('@/features/offers/components/offers-admin').then((m) => m.OffersAdmin),
  ),
  section('personal-data', 'Personal data', 'How long personal data is kept, and the two periods you set.', () =>
    import('@/features/admin/components/data-retention-panel').then((m) => m.DataRetentionPanel),
  ),
];

/** The section at a slug, if there is one. */
export const settingsSectionAt = (slug: string) => SETTINGS_SECTIONS.find((s) => s.slug === slug);
