import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRouteModules } from '@/app/router';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { postgrestError, restGet, rpc } from '@/testing/supabase-mocks';
import { signInAsAdmin } from '@/testing/admin-fixtures';
import { SETTINGS_SECTIONS } from './settings-sections';

// Admin > Settings, each in its section (decision 0107): cover approvals (decision 0087), review
// requests (decision 0088) and the snippet of the timetable other sites show (decision 0089).

beforeAll(async () => {
  await loadRouteModules({ pathname: '/admin/settings/cover' });
}, 60_000);

const inTwoDays = new Date(Date.now() + 2 * 86_400_000).toISOString();
const request = {
  id: 'r-1',
  class_id: 'c-1',
  class_name: 'Evening Yoga',
  start_time: inTwoDays,
  duration: 60,
  requested_by: 't-1',
  requested_by_name: 'Coach Alex',
  note: 'Off sick',
  status: 'accepted',
  accepted_by: 't-2',
  accepted_by_name: 'Coach Jess',
  created_at: inTwoDays,
  accepted_at: inTwoDays,
  mine: false,
  covering: false,
};

function setup() {
  const calls: { fn: string; args: Record<string, unknown> }[] = [];
  let pending = [request];
  let reviews = { after_classes: null as number | null, once_in_months: 6, review_url: null as string | null };
  const { handlers } = signInAsAdmin();
  server.use(
    ...handlers,
    restGet('meeting_points', () => []),
    restGet('timetable_slot_meeting_points', () => []),
    restGet('trainers', () => [
      { id: 't-1', name: 'Coach Alex', bio: '', photo_url: null, created_at: '2026-01-01T00:00:00Z' },
      { id: 't-2', name: 'Coach Jess', bio: '', photo_url: null, created_at: '2026-01-01T00:00:00Z' },
    ]),
    rpc('admin_cover_requests', () => pending),
    rpc('admin_cover_auto_approve', () => false),
    rpc('set_cover_auto_approve', ({ args }) => {
      calls.push({ fn: 'set_cover_auto_approve', args });
      return args.p_on as boolean;
    }),
    rpc('approve_cover', ({ args }) => {
      calls.push({ fn: 'approve_cover', args });
      if (calls.filter((c) => c.fn === 'approve_cover').length > 1)
        return postgrestError({ code: 'P0001', message: 'This request is already settled', hint: 'cover_request_closed' });
      pending = [];
      return { ...request, status: 'approved' };
    }),
    rpc('admin_review_request_settings', () => reviews),
    rpc('admin_data_retention', () => ({ guest_signature_days: 1095, contact_message_days: 365 })),
    rpc('admin_offer_report', () => []),
    restGet('referral_settings', () => [{ enabled: false, reward_kind: 'session_credit', renewal_amount: 10, credit_valid_days: 90 }]),
    rpc('set_review_request_settings', ({ args }) => {
      calls.push({ fn: 'set_review_request_settings', args });
      reviews = {
        after_classes: args.p_after_classes as number,
        once_in_months: args.p_once_in_months as number,
        review_url: args.p_review_url as string,
      };
      return reviews;
    }),
  );
  return calls;
}

describe('/admin/settings', () => {
  it('approves an offer to cover, and turns on approving offers at once', async () => {
    const calls = setup();
    renderApp('/admin/settings/cover');
    const list = within(await screen.findByRole('list', { name: 'Cover requests' }, { timeout: 10_000 }));
    expect(list.getByText(/Coach Alex asked for cover; Coach Jess offered: “Off sick”/)).toBeInTheDocument();
    await userEvent.click(list.getByRole('button', { name: /^Approve Coach Jess covering Evening Yoga/ }));
    expect(await screen.findByText('Evening Yoga is now Coach Jess’s class')).toBeInTheDocument();
    expect(await screen.findByText('No cover requests under way.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Approve offers to cover at once (no admin step)' }));
    expect(await screen.findByText('Offers to cover are approved at once')).toBeInTheDocument();
    expect(calls.map((c) => [c.fn, c.args])).toEqual([
      ['approve_cover', { p_id: 'r-1' }],
      ['set_cover_auto_approve', { p_on: true }],
    ]);
  });

  it('saves review requests, refusing requests without a link or a link that is not https', async () => {
    const calls = setup();
    renderApp('/admin/settings/review-requests');
    const classes = await screen.findByRole('textbox', { name: /After this many attended classes/ }, { timeout: 10_000 });
    await userEvent.type(classes, '5');
    await userEvent.click(screen.getByRole('button', { name: 'Save review requests' }));
    expect(await screen.findByText('Add the review link to send requests')).toBeInTheDocument();
    const link = screen.getByRole('textbox', { name: 'Your review link' });
    await userEvent.type(link, 'http://g.page/r/x/review');
    await userEvent.click(screen.getByRole('button', { name: 'Save review requests' }));
    expect(await screen.findByText('A web address starting https://')).toBeInTheDocument();
    expect(calls).toEqual([]);

    await userEvent.clear(link);
    await userEvent.type(link, 'https://g.page/r/x/review');
    await userEvent.click(screen.getByRole('button', { name: 'Save review requests' }));
    expect(await screen.findByText('Review requests after 5 classes')).toBeInTheDocument();
    expect(calls).toEqual([
      { fn: 'set_review_request_settings', args: { p_after_classes: 5, p_once_in_months: 6, p_review_url: 'https://g.page/r/x/review' } },
    ]);
  });

  it('builds the snippet of the timetable for other sites from the chosen filters', async () => {
    setup();
    renderApp('/admin/settings/timetable-on-other-sites');
    const snippet = await screen.findByRole('textbox', { name: 'Snippet' }, { timeout: 10_000 });
    expect(snippet).toHaveValue(
      `<iframe src="${window.location.origin}/embed/schedule" title="Finer Fitness timetable" width="100%" height="600" style="border:0" loading="lazy"></iframe>`,
    );
    await screen.findByRole('option', { name: 'Coach Jess' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Coach' }), 'Coach Jess');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Saturday' }));
    expect((snippet as HTMLTextAreaElement).value).toContain(
      `src="${window.location.origin}/embed/schedule?coach=Coach+Jess&amp;days=sat"`,
    );
    expect(screen.getByText(/Sites allowed to show it: https:\/\/www.partner-site.example\./)).toBeInTheDocument();
  });
});

describe('/admin/settings sections', () => {
  it('lands on an overview that leads into every section, and the side list marks where the admin is', async () => {
    setup();
    const { router } = renderApp('/admin/settings');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' }, { timeout: 10_000 })).toBeInTheDocument();
    const overview = within(screen.getByRole('navigation', { name: 'Settings' }));
    expect(overview.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(
      SETTINGS_SECTIONS.map((s) => `/admin/settings/${s.slug}`),
    );
    const side = within(screen.getByRole('navigation', { name: 'Settings sections' }));
    expect(side.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');

    // The side list (desktop): the chosen section opens, is marked current and takes the focus.
    await userEvent.click(side.getByRole('link', { name: 'Review requests' }));
    expect(router.state.location.pathname).toBe('/admin/settings/review-requests');
    expect(await screen.findByRole('button', { name: 'Save review requests' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(side.getByRole('link', { name: 'Review requests' })).toHaveAttribute('aria-current', 'page');
    expect(side.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('region', { name: 'Review requests settings' })).toHaveFocus();
    expect(screen.queryByRole('navigation', { name: 'Settings' })).not.toBeInTheDocument();

    await userEvent.click(side.getByRole('link', { name: 'Offers' }));
    expect(await screen.findByRole('form', { name: 'Referral reward' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save review requests' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Offers settings' })).toHaveFocus();
  });

  it('on a phone, goes from the overview into a section and back by links', async () => {
    setup();
    const { router } = renderApp('/admin/settings');
    const overview = within(await screen.findByRole('navigation', { name: 'Settings' }, { timeout: 10_000 }));
    await userEvent.click(overview.getByRole('link', { name: /^Personal data/ }));
    expect(await screen.findByRole('heading', { name: 'How long personal data is kept' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/settings/personal-data');
    expect(screen.getByRole('region', { name: 'Personal data settings' })).toHaveFocus();
    await userEvent.click(screen.getByRole('link', { name: 'All settings' }));
    expect(router.state.location.pathname).toBe('/admin/settings');
    expect(await screen.findByRole('navigation', { name: 'Settings' })).toHaveFocus();
  });

  it('opens each section at its own address with its panels', async () => {
    setup();
    for (const section of SETTINGS_SECTIONS) {
      const { unmount } = renderApp(`/admin/settings/${section.slug}`);
      const region = await screen.findByRole('region', { name: `${section.title} settings` }, { timeout: 10_000 });
      expect((await within(region).findAllByRole('heading', { level: 2 }, { timeout: 10_000 })).length).toBeGreaterThan(0);
      // Opened by its address, the page keeps the browser's focus where it was.
      expect(region).not.toHaveFocus();
      unmount();
    }
  });

  it('sends an address with no such section to the overview', async () => {
    setup();
    const { router } = renderApp('/admin/settings/no-such-section');
    expect(await screen.findByRole('navigation', { name: 'Settings' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/settings');
  });
});
