import { Suspense, useEffect, useRef, type RefObject } from 'react';
import { Link, Navigate, NavLink, useParams } from 'react-router-dom';
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
  // Moving between the overview and a section (the route stays mounted) moves focus to what was
  // chosen, so a keyboard or screen-reader user carries on there; opening the page leaves focus alone.
  const content = useRef<HTMLElement>(null);
  const shown = useRef(slug);
  useEffect(() => {
    if (shown.current === slug) return;
    shown.current = slug;
    content.current?.focus();
  }, [slug]);
  if (slug !== undefined && !current) return <Navigate to={paths.admin.settings} replace />;
  return (
    <>
      {/* On a phone a section leads back to the list; from lg up the side list is there. */}
      {current && (
        <Link
          to={paths.admin.settings}
          className="mb-2 inline-flex min-h-11 items-center gap-1 text-sm font-medium text-slate-700 hover:text-slate-900 lg:hidden"
        >
          <ChevronLeft aria-hidden="true" className="h-4 w-4" />
          All settings
        </Link>
      )}
      <PageHeading title="Settings" subtitle={current ? current.summary : OVERVIEW_INTRO} />
      {/* Only classes the app already uses, so the stylesheet every page loads does not grow. In a
          section the panels' own top margin (mt-10) is most of the gap below the heading. */}
      <div className={cn('items-start gap-6 lg:flex', current && '-mt-5')}>
        <SectionList inSection={current !== undefined} />
        <div className="min-w-0 flex-1">
          {current ? <SectionView section={current} focusRef={content} /> : <Overview focusRef={content} />}
        </div>
      </div>
    </>
  );
}

const sideLink = ({ isActive }: { isActive: boolean }) =>
  cn('block rounded-lg px-3 py-2 text-sm font-medium', isActive ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-100');

/**
 * The side list, from lg up: the overview and every section, the open one marked as the current
 * page. Beside a section it starts level with the panels' headings (each panel's top margin).
 */
function SectionList({ inSection }: { inSection: boolean }) {
  return (
    <nav aria-label="Settings sections" className={cn('hidden w-48 shrink-0 lg:block', inSection && 'mt-10')}>
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
function Overview({ focusRef }: { focusRef: RefObject<HTMLElement | null> }) {
  return (
    <nav ref={focusRef} tabIndex={-1} aria-label="Settings" className="focus:outline-none">
      <ul className="grid gap-3 sm:grid-cols-2">
        {SETTINGS_SECTIONS.map((s) => (
          <li key={s.slug}>
            <Link
              to={paths.admin.settingsSection.href(s.slug)}
              className="flex min-h-11 items-center justify-between gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm hover:border-slate-400"
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

/** One section's panels, in a region that takes the focus when the section is chosen from a list. */
function SectionView({ section, focusRef }: { section: SettingsSection; focusRef: RefObject<HTMLElement | null> }) {
  const { Panel } = section;
  return (
    <section ref={focusRef} tabIndex={-1} aria-label={`${section.title} settings`} className="focus:outline-none">
      <Suspense fallback={<Spinner label={`Loading ${section.title}`} />}>
        <Panel />
      </Suspense>
    </section>
  );
}
