import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { loadRouteModules } from '../router';
import { renderApp } from '@/testing/render';
import { makeGuestPlace, makePlace } from '@/testing/class-place-mocks';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';

// Decision 0027: the coach area. A coach sees the classes they teach, each class's roster with the
// health flag and emergency contacts, and checks members in; the database refuses other classes.

// The screen's chunk loads once before the tests (a cold lazy route can take seconds on a busy machine).
beforeAll(async () => {
  await loadRouteModules({ pathname: '/coach' });
}, 60_000);

const trainer = { id: 't-1', name: 'Coach Alex', bio: '', photo_url: null, created_at: '2026-01-01T00:00:00Z' };
const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

const coachClass = (id: string, name: string, startsIn: number, counts = { booked: 2, guests: 1, attended: 0, no_show: 0 }) => ({
  id,
  name,
  type: 'Group',
  start_time: minutesFromNow(startsIn),
  duration: 45,
  ...counts,
});

function signInAsCoach() {
  const { member } = signInAs({ email: 'coach@studio.test', name: 'Alex Morgan' });
  server.use(
    memberHandler(member),
    rpc('my_coach_profile', () => [trainer]),
    rpc('coach_cover_requests', () => []),
    rpc('my_coach_pay_statement', () => [
      {
        class_id: 'p-1',
        class_name: 'Breakfast Club',
        class_type: 'Group',
        start_time: '2026-11-03T06:00:00Z',
        attendees: 4,
        basis: 'base_plus_attendee',
        base_amount: 20,
        per_attendee: 2,
        amount: 28,
      },
    ]),
  );
  return member;
}

describe('/coach', () => {
  it("lists today's and upcoming classes the coach teaches, each opening its roster", async () => {
    signInAsCoach();
    server.use(rpc('coach_classes', () => [coachClass('c-1', 'Breakfast Club', 10), coachClass('c-2', 'Kids Club', 3 * 24 * 60)]));
    renderApp('/coach');
    expect(await screen.findByRole('heading', { name: 'Your classes' }, { timeout: 10_000 })).toBeInTheDocument();
    const today = within(await screen.findByRole('region', { name: 'Today' }));
    expect(today.getByRole('link', { name: /Breakfast Club/ })).toHaveAttribute('href', '/coach/classes/c-1');
    expect(today.getByText('2 booked + 1 guest · 0 checked in')).toBeInTheDocument();
    const upcoming = within(screen.getByRole('region', { name: 'Upcoming' }));
    expect(upcoming.getByRole('link', { name: /Kids Club/ })).toHaveAttribute('href', '/coach/classes/c-2');
    // Their own pay this month: the class, its check-ins, the rate and the total.
    const pay = within(screen.getByRole('region', { name: 'Your pay' }));
    expect(await pay.findByText('£20.00 + £2.00 an attendee')).toBeInTheDocument();
    expect(pay.getByText((_, el) => el?.tagName === 'P' && /^1 class taught/.test(el.textContent ?? ''))).toHaveTextContent(
      '1 class taught, 4 checked in, total £28.00',
    );
  });

  it('tells an account that is not a coach that the area is for coaches', async () => {
    const { member } = signInAs();
    server.use(
      memberHandler(member),
      rpc('my_coach_profile', () => []),
    );
    renderApp('/coach');
    expect(await screen.findByRole('heading', { name: 'This area is for the studio’s coaches' })).toBeInTheDocument();
  });
});

describe('/coach/classes/:classId', () => {
  it('shows the roster with guests, the health flag and emergency contacts, and checks a member in', async () => {
    signInAsCoach();
    const marks: unknown[] = [];
    server.use(
      rpc('coach_classes', () => [coachClass('c-1', 'Breakfast Club', 10)]),
      rpc('coach_class_roster', ({ args }) => {
        expect(args).toEqual({ p_class_id: 'c-1' });
        const tom = makePlace({
          place_id: 'b-1',
          name: 'Tom Baker',
          email: null,
          emergency_contact_name: 'Jen Baker',
          emergency_contact_phone: '07700 900654',
          health_flag: true,
          health_yes: ['Do you have a bone or joint problem?'],
          health_details: 'Old left knee injury',
        });
        return [
          tom,
          makeGuestPlace(tom, { place_id: 'g-1', name: 'Gus Guest', email: null }),
          makePlace({ place_id: 'b-2', name: 'Priya Shah', email: null, attendance: 'attended', documents_current: false }),
        ];
      }),
      rpc('coach_mark_attendance', ({ args }) => {
        marks.push(args);
        return { booking_id: 'b-1', class_id: 'c-1', attendance: 'attended', attendance_marked_at: new Date().toISOString() };
      }),
    );
    renderApp('/coach/classes/c-1');
    expect(await screen.findByRole('heading', { name: 'Breakfast Club' }, { timeout: 10_000 })).toBeInTheDocument();
    const tom = await screen.findByRole('button', { name: 'Check in Tom Baker' });
    expect(tom).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Check in Priya Shah' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Jen Baker 07700 900654')).toBeInTheDocument();
    expect(screen.getByText('Ask before class')).toBeInTheDocument();
    expect(screen.getByText('Do you have a bone or joint problem?')).toBeInTheDocument();
    expect(screen.getByText('Guest of Tom Baker')).toBeInTheDocument();
    // The guest has not signed the waiver from their email's link.
    expect(screen.getByText('Waiver not signed')).toBeInTheDocument();
    expect(screen.getByText('Has not signed the current documents')).toBeInTheDocument();
    expect(screen.getByText('3 booked · 1 checked in')).toBeInTheDocument();
    // A guest is checked in at the door like anyone else.
    expect(screen.getByRole('button', { name: 'Check in Gus Guest' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Print register' })).toBeInTheDocument();

    await userEvent.click(tom);
    expect(marks).toEqual([{ p_booking_id: 'b-1', p_status: 'attended' }]);
    expect(await screen.findByRole('button', { name: 'Check in Tom Baker' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('3 booked · 2 checked in')).toBeInTheDocument();
  });

  it("shows a child's place with the child's own health answers and the parent only as the contact", async () => {
    signInAsCoach();
    server.use(
      rpc('coach_classes', () => [coachClass('c-4', 'Kids Club', 10)]),
      rpc('coach_class_roster', () => [
        makePlace({
          place_id: 'b-4',
          kind: 'child',
          name: 'Eve',
          contact_name: 'Pat Parent',
          email: null,
          phone: '07700 900123',
          date_of_birth: '2018-01-01',
          health_flag: true,
          health_yes: ['Has a doctor said you have a heart condition?'],
          health_details: 'Asthma: inhaler in bag',
          medical_notes: 'Nut allergy',
          collected_by: 'Grandma Sue',
        }),
      ]),
    );
    renderApp('/coach/classes/c-4');
    expect(await screen.findByRole('button', { name: 'Check in Eve' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('Pat Parent')).toBeInTheDocument();
    expect(screen.getByText('Grandma Sue')).toBeInTheDocument();
    expect(screen.getByText('Nut allergy')).toBeInTheDocument();
    expect(screen.getByText('Asthma: inhaler in bag')).toBeInTheDocument();
    expect(screen.getByText("Parent's phone")).toBeInTheDocument();
  });

  it('keeps check-in closed until an hour before the start', async () => {
    signInAsCoach();
    server.use(
      rpc('coach_classes', () => [coachClass('c-3', 'Kids Club', 3 * 60)]),
      rpc('coach_class_roster', () => [makePlace({ place_id: 'b-3', name: 'Ava Turner' })]),
    );
    renderApp('/coach/classes/c-3');
    expect(await screen.findByRole('button', { name: 'Check in Ava Turner' }, { timeout: 10_000 })).toBeDisabled();
    expect(screen.getByText('Check-in opens 1 hour before the class starts.')).toBeInTheDocument();
  });

  it("says so when the database refuses another trainer's class", async () => {
    signInAsCoach();
    server.use(
      rpc('coach_classes', () => []),
      rpc('coach_class_roster', () =>
        postgrestError({ code: '42501', message: 'This is not one of your classes', hint: 'not_your_class' }, 403),
      ),
    );
    renderApp('/coach/classes/c-9');
    expect(await screen.findByRole('alert')).toHaveTextContent('This is not one of your classes');
    expect(screen.queryByRole('button', { name: /Check in/ })).not.toBeInTheDocument();
  });
});

describe('/coach: cover (decision 0087)', () => {
  const request = (overrides: Record<string, unknown>) => ({
    id: 'r-1',
    class_id: 'c-7',
    class_name: 'Evening Yoga',
    start_time: minutesFromNow(2 * 24 * 60),
    duration: 60,
    requested_by: 't-2',
    requested_by_name: 'Coach Jess',
    note: 'Off sick',
    status: 'open',
    accepted_by: null,
    accepted_by_name: null,
    created_at: minutesFromNow(-60),
    accepted_at: null,
    mine: false,
    covering: false,
    ...overrides,
  });

  it("offers to cover another coach's class, and the studio's answer is shown", async () => {
    signInAsCoach();
    let accepted: unknown = null;
    server.use(
      rpc('coach_classes', () => []),
      rpc('coach_cover_requests', () => [request({})]),
      rpc('accept_cover', ({ args }) => {
        accepted = args;
        return request({ status: 'accepted', accepted_by: 't-1', accepted_by_name: 'Coach Alex', covering: true });
      }),
    );
    renderApp('/coach');
    const list = within(await screen.findByRole('list', { name: 'Cover requests' }, { timeout: 10_000 }));
    expect(list.getByText('Coach Jess needs cover')).toBeInTheDocument();
    expect(list.getByText('“Off sick”')).toBeInTheDocument();
    await userEvent.click(list.getByRole('button', { name: /^Cover Evening Yoga/ }));
    expect(await screen.findByText('Offer sent: the studio will confirm')).toBeInTheDocument();
    expect(accepted).toEqual({ p_id: 'r-1' });
  });

  it('asks for cover on one of my classes with a note, and says why the studio refused', async () => {
    signInAsCoach();
    const asked: unknown[] = [];
    server.use(
      rpc('coach_classes', () => [coachClass('c-1', 'Breakfast Club', 3 * 24 * 60)]),
      rpc('request_cover', ({ args }) => {
        asked.push(args);
        return asked.length === 1
          ? request({ id: 'r-2', class_id: 'c-1', class_name: 'Breakfast Club', mine: true, requested_by: 't-1' })
          : postgrestError({ code: 'P0001', message: 'You have already asked for cover on this class', hint: 'cover_already_requested' });
      }),
    );
    renderApp('/coach');
    const form = await screen.findByRole('combobox', { name: 'Ask for cover on' }, { timeout: 10_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Ask for cover' }));
    expect(await screen.findByText('Choose the class')).toBeInTheDocument();
    expect(asked).toEqual([]);

    await userEvent.selectOptions(form, 'c-1');
    await userEvent.type(screen.getByRole('textbox', { name: /Note for the other coaches/ }), 'Away at a course');
    await userEvent.click(screen.getByRole('button', { name: 'Ask for cover' }));
    expect(await screen.findByText('Cover requested: the other coaches can see it')).toBeInTheDocument();
    expect(asked).toEqual([{ p_class_id: 'c-1', p_note: 'Away at a course' }]);

    await userEvent.selectOptions(form, 'c-1');
    await userEvent.click(screen.getByRole('button', { name: 'Ask for cover' }));
    expect(await screen.findByText('You have already asked for cover on this class')).toBeInTheDocument();
  });
});
