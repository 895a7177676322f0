import { Suspense, useEffect, useRef } from 'react';
import { Link, Navigate, NavLink, useLocation, useParams } from 'react-router-dom';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '@/components/ui/cn';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { PageHeading } from '@/features/admin/components/page-heading';
import { SETTINGS_SECTIONS, settingsSectionAt, type SettingsSection } from './settings-sections';

const OVERVIEW_INTRO =
  'Where classes meet, cover, review requests, your timetable on other sites, offers, and how long personal data is kept.';

/**
 * /admin/settings and /admin/settings/:section (decision 0107): the studio's settings in sections.
 * From lg up a side list beside the section; on a phone the overview is the list, and a section
 * leads back to it. Each section's panels load when it is opened (settings-sections.ts).
 */
export function AdminSettingsRoute() {
  const { section: slug } = useParams();
  const current = slug === undefined ? undefined : settingsSectionAt(slug);
  if (slug !== undefined && !current) return <Navigate to={paths.admin.settings} replace />;
  return (
    <>
      <PageHeading title="Settings" subtitle={current ? current.summary : OVERVIEW_INTRO} />
      <div className="lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:items-start lg:gap-8">
        <SectionList />
        {current ? <SectionView section={current} /> : <Overview />}
      </div>
    </>
  );
}

const sideLink = ({ isActive }: { isActive: boolean }) =>
  cn(
    'block rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600',
    isActive ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-100',
  );

/** The side list, from lg up: the overview and every section, the open one marked as the current page. */
function SectionList() {
  return (
    <nav aria-label="Settings sections" className="hidden lg:sticky lg:top-8 lg:block">
      <ul className="space-y-1">
        <li>
          <NavLink to={paths.admin.settings} end className={sideLink}>
            Overview
          </NavLink>
        </li>
        {SETTINGS_SECTIONS.map((s) => (
          <li key={s.slug}>
            <NavLink to={paths.admin.settingsSection.href(s.slug)} className={sideLink}>
              {s.title}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** /admin/settings: every section with what it holds, each leading into it (on a phone, the only list). */
function Overview() {
  return (
    <nav aria-label="Settings">
      <ul className="grid gap-3 sm:grid-cols-2">
        {SETTINGS_SECTIONS.map((s) => (
          <li key={s.slug}>
            <Link
              to={paths.admin.settingsSection.href(s.slug)}
              className="flex min-h-11 items-center justify-between gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm hover:border-slate-400 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <span>
                <span className="block font-semibold text-slate-900">{s.title}</span>
                <span className="mt-0.5 block text-sm text-slate-600">{s.summary}</span>
              </span>
              <ChevronRight aria-hidden="true" className="h-5 w-5 shrink-0 text-slate-400" />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * One section's panels. Opening another section moves focus to it, so a keyboard or screen-reader
 * user lands on what they chose rather than on the list they chose it from.
 */
function SectionView({ section }: { section: SettingsSection }) {
  const region = useRef<HTMLDivElement>(null);
  // The first page of a visit ('default') keeps the browser's focus; a section opened from a list moves it.
  const arrived = useLocation().key !== 'default';
  useEffect(() => {
    if (arrived) region.current?.focus();
  }, [section, arrived]);
  const { Panel } = section;
  return (
    <div>
      <Link
        to={paths.admin.settings}
        className="mb-4 inline-flex min-h-11 items-center gap-1 text-sm font-medium text-slate-700 hover:text-slate-900 lg:hidden"
      >
        <ChevronLeft aria-hidden="true" className="h-4 w-4" />
        All settings
      </Link>
      <div
        ref={region}
        tabIndex={-1}
        role="region"
        aria-label={`${section.title} settings`}
        className="focus:outline-none [&>section:first-child]:mt-0"
      >
        <Suspense fallback={<Spinner label={`Loading ${section.title}`} />}>
          <Panel />
        </Suspense>
      </div>
    </div>
  );
}
