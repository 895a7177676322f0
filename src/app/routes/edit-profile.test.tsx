import '@/testing/match-media-polyfill';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Member } from '@/lib/supabase';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import {
  AUTH_URL,
  memberHandler,
  postgrestError,
  preferencesHandlers,
  REST_URL,
  restGet,
  rowsResponse,
  signInAs,
  SUPABASE_URL,
} from '@/testing/supabase-mocks';

configure({ asyncUtilTimeout: 5000 });

function setup(overrides: Partial<Member> = {}) {
  const signed = signInAs({
    name: 'Sam Member',
    phone: null,
    membership_tier: 'standard',
    created_at: '2025-01-05T10:00:00Z',
    ...overrides,
  });
  server.use(
    memberHandler(signed.member),
    http.head(`${REST_URL}/bookings`, () => new HttpResponse(null, { headers: { 'content-range': '*/7' } })),
    ...preferencesHandlers(),
    restGet('push_preferences', () => []),
  );
  return signed;
}

const user = () => userEvent.setup({ applyAccept: false });

/** The eight bytes every PNG starts with. */
const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('Edit Profile', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows the profile, the read-only email and the account summary', async () => {
    const { member } = setup();
    renderApp('/edit-profile');
    expect(await screen.findByLabelText('Full Name')).toHaveValue('Sam Member');
    expect(screen.getByLabelText('Email')).toHaveValue(member.email);
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    const summary = within(screen.getByRole('heading', { name: 'Account Summary' }).parentElement!);
    expect(summary.getByText('Standard')).toBeInTheDocument();
    expect(summary.getByText('January 2025')).toBeInTheDocument();
    expect(summary.getByText('7')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Security Tips' })).toBeInTheDocument();
  });

  it('shows the cached profile without a request when the member comes back within the stale time', async () => {
    setup();
    let profileReads = 0;
    server.use(
      http.head(`${REST_URL}/bookings`, () => {
        profileReads += 1;
        return new HttpResponse(null, { headers: { 'content-range': '*/7' } });
      }),
    );
    const { router } = renderApp('/edit-profile');
    expect(await screen.findByLabelText('Full Name')).toHaveValue('Sam Member');
    expect(profileReads).toBe(1);
    await router.navigate('/');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    await router.navigate('/edit-profile');
    expect(await screen.findByLabelText('Full Name')).toHaveValue('Sam Member');
    expect(profileReads).toBe(1);
  });

  it('requires a name and saves name and phone, then refreshes the member', async () => {
    const { member } = setup();
    const patches: { url: URL; body: unknown }[] = [];
    let memberReads = 0;
    server.use(
      http.get(`${REST_URL}/members`, ({ request }) => {
        memberReads += 1;
        return rowsResponse(request, [member]);
      }),
      http.patch(`${REST_URL}/members`, async ({ request }) => {
        patches.push({ url: new URL(request.url), body: await request.json() });
        return HttpResponse.json([{ id: member.id }]);
      }),
    );
    renderApp('/edit-profile');
    const name = await screen.findByLabelText('Full Name');
    await user().clear(name);
    await user().click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(patches).toEqual([]);

    await user().type(name, 'Samira Member');
    await user().type(screen.getByLabelText(/Phone/), '07700 900001');
    const readsBefore = memberReads;
    await user().click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(patches[0]?.body).toEqual({
      name: 'Samira Member',
      phone: '07700 900001',
      date_of_birth: null,
      emergency_contact_name: null,
      emergency_contact_phone: null,
    });
    expect(patches[0]?.url.searchParams.get('id')).toBe(`eq.${member.id}`);
    await vi.waitFor(() => expect(memberReads).toBeGreaterThan(readsBefore));
  });

  it('saves a date of birth and an emergency contact, and refuses a date of birth in the future', async () => {
    const { member } = setup();
    const patches: unknown[] = [];
    server.use(
      http.patch(`${REST_URL}/members`, async ({ request }) => {
        patches.push(await request.json());
        return HttpResponse.json([{ id: member.id }]);
      }),
    );
    renderApp('/edit-profile');
    const dob = await screen.findByLabelText(/Date of birth/);
    await user().type(dob, '2999-01-01');
    await user().click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Date of birth cannot be in the future')).toBeInTheDocument();
    expect(patches).toEqual([]);

    await user().clear(dob);
    await user().type(dob, '1990-05-17');
    await user().type(screen.getByLabelText(/Emergency contact name/), 'Ravi Shah');
    await user().type(screen.getByLabelText(/Emergency contact phone/), '07700 900321');
    await user().click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(patches[0]).toMatchObject({
      date_of_birth: '1990-05-17',
      emergency_contact_name: 'Ravi Shah',
      emergency_contact_phone: '07700 900321',
    });
  });

  it('says the update failed when the server refuses', async () => {
    setup();
    server.use(http.patch(`${REST_URL}/members`, () => postgrestError({ code: '42501', message: 'permission denied' }, 403)));
    renderApp('/edit-profile');
    await screen.findByLabelText('Full Name');
    await user().click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update profile. Please try again.')).toBeInTheDocument();
  });

  it('refuses a file that is not an image and one of 5MB or more, without uploading', async () => {
    setup();
    let uploads = 0;
    server.use(http.post(`${SUPABASE_URL}/storage/v1/object/*`, () => ((uploads += 1), HttpResponse.json({}))));
    renderApp('/edit-profile');
    const input = await screen.findByLabelText('Choose a profile photo');

    await user().upload(input, new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select an image file');

    // 27 bytes of text named fake.png, declared image/png, is not a photo.
    await user().upload(input, new File(['this is not an image at all'], 'fake.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Please select an image file'));

    const big = new File([new Uint8Array(5 * 1024 * 1024)], 'big.png', { type: 'image/png' });
    await user().upload(input, big);
    expect(await screen.findByRole('alert')).toHaveTextContent('Image must be less than 5MB');
    expect(uploads).toBe(0);
  });

  it('uploads a photo as <member id>.<ext> with upsert, saves its public URL and shows it', async () => {
    const { member } = setup();
    const uploads: { path: string; upsert: string | null }[] = [];
    const patches: unknown[] = [];
    server.use(
      http.post(`${SUPABASE_URL}/storage/v1/object/avatars/:name`, ({ request, params }) => {
        uploads.push({ path: String(params.name), upsert: request.headers.get('x-upsert') });
        return HttpResponse.json({ Id: 'obj-1', Key: `avatars/${String(params.name)}` });
      }),
      http.patch(`${REST_URL}/members`, async ({ request }) => {
        patches.push(await request.json());
        return HttpResponse.json([{ id: member.id }]);
      }),
    );
    renderApp('/edit-profile');
    const input = await screen.findByLabelText('Choose a profile photo');
    await user().upload(input, new File([PNG_SIGNATURE, 'png-bytes'], 'Me.PNG', { type: 'image/png' }));

    expect(await screen.findByText('Profile picture updated successfully!')).toBeInTheDocument();
    expect(uploads).toEqual([{ path: `${member.id}.png`, upsert: 'true' }]);
    const saved = (patches[0] as { profile_image_url: string }).profile_image_url;
    expect(saved).toMatch(new RegExp(`^${SUPABASE_URL}/storage/v1/object/public/avatars/${member.id}\\.png\\?t=\\d+$`));
    expect(screen.getByRole('img', { name: 'Profile photo' }).getAttribute('src')).toMatch(/^data:image\/png/);
  });

  it('says the upload failed when storage refuses', async () => {
    setup();
    server.use(
      http.post(`${SUPABASE_URL}/storage/v1/object/avatars/:name`, () =>
        HttpResponse.json(
          { statusCode: '403', error: 'Unauthorized', message: 'new row violates row-level security policy' },
          { status: 400 },
        ),
      ),
    );
    renderApp('/edit-profile');
    await user().upload(
      await screen.findByLabelText('Choose a profile photo'),
      new File(['GIF89a', 'gif'], 'a.gif', { type: 'image/gif' }),
    );
    expect(await screen.findByText('Failed to upload image. Please try again.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Profile photo' })).not.toBeInTheDocument();
  });

  it('checks the password rules in order, then updates the password', async () => {
    setup();
    const bodies: unknown[] = [];
    server.use(
      http.put(`${AUTH_URL}/user`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          { id: 'u', aud: 'authenticated', role: 'authenticated', email: 'member@studio.test' },
          { headers: { 'x-supabase-api-version': '2024-01-01' } },
        );
      }),
    );
    renderApp('/edit-profile');
    const pw = await screen.findByLabelText('New Password');
    const confirm = screen.getByLabelText('Confirm New Password');
    const submit = screen.getByRole('button', { name: 'Update Password' });

    await user().type(pw, 'abcdef');
    await user().click(submit);
    expect(await screen.findByText('Please fill in both password fields')).toBeInTheDocument();

    await user().clear(pw);
    await user().type(pw, 'abcde');
    await user().type(confirm, 'abcde');
    await user().click(submit);
    // The hint under New Password says the same words; the error is the one tied to the confirm field.
    expect(confirm).toHaveAccessibleDescription('Password must be at least 6 characters long');

    await user().type(pw, 'f');
    await user().type(confirm, 'g');
    await user().click(submit);
    expect(confirm).toHaveAccessibleDescription('Passwords do not match');
    expect(bodies).toEqual([]);

    await user().clear(confirm);
    await user().type(confirm, 'abcdef');
    await user().click(submit);
    expect(await screen.findByText('Password updated successfully!')).toBeInTheDocument();
    expect(bodies).toEqual([expect.objectContaining({ password: 'abcdef' })]);
    await vi.waitFor(() => expect(screen.getByLabelText('New Password')).toHaveValue(''));
  });

  it('says the password change failed when the server refuses, with its reason when it gives one', async () => {
    setup();
    let answer = { code: 'same_password', message: 'New password should be different' };
    server.use(
      http.put(`${AUTH_URL}/user`, () => HttpResponse.json(answer, { status: 422, headers: { 'x-supabase-api-version': '2024-01-01' } })),
    );
    renderApp('/edit-profile');
    await user().type(await screen.findByLabelText('New Password'), 'abcdef');
    await user().type(screen.getByLabelText('Confirm New Password'), 'abcdef');
    await user().click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Your new password must be different from your current password.')).toBeInTheDocument();

    answer = { code: 'unexpected_failure', message: 'boom' };
    await user().click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Failed to change password. Please try again.')).toBeInTheDocument();
  });

  it('names a name over the limit on its field, and sends nothing', async () => {
    setup();
    let patched = 0;
    server.use(http.patch(`${REST_URL}/members`, () => void patched++));
    renderApp('/edit-profile');
    const name = await screen.findByLabelText('Full Name');
    await user().clear(name);
    await user().click(name);
    await user().paste('N'.repeat(101));
    await user().click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(name).toHaveAccessibleDescription('Your name is too long (at most 100 characters)');
    expect(patched).toBe(0);
  });

  it('takes only phone numbers, for the member and their emergency contact, and says so on the field', async () => {
    const { member } = setup();
    const patches: unknown[] = [];
    server.use(
      http.patch(`${REST_URL}/members`, async ({ request }) => {
        patches.push(await request.json());
        return HttpResponse.json([{ id: member.id }]);
      }),
    );
    renderApp('/edit-profile');
    const phone = await screen.findByLabelText(/^Phone/);
    const emergency = screen.getByLabelText(/Emergency contact phone/);
    await user().type(phone, 'not a phone <b>');
    await user().type(emergency, '020.7946.0018');
    await user().click(screen.getByRole('button', { name: 'Save Changes' }));
    const invalid = 'Enter a phone number with digits, spaces, brackets or hyphens, like 07700 900123 or +44 7700 900123';
    expect(phone).toHaveAccessibleDescription(invalid);
    expect(emergency).toHaveAccessibleDescription(invalid);
    expect(patches).toEqual([]);

    await user().clear(phone);
    await user().type(phone, '+44 (0)20 7946 0018');
    await user().clear(emergency);
    await user().type(emergency, '(020) 7946-0019');
    await user().click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(patches).toEqual([expect.objectContaining({ phone: '+44 (0)20 7946 0018', emergency_contact_phone: '(020) 7946-0019' })]);
  });

  it('says it failed to load the profile data', async () => {
    const { member } = signInAs();
    server.use(
      http.get(`${REST_URL}/members`, ({ request }) =>
        (request.headers.get('accept') ?? '').includes('pgrst.object')
          ? postgrestError({ code: 'XX000', message: 'boom' }, 500)
          : HttpResponse.json([member]),
      ),
    );
    renderApp('/edit-profile');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load profile data');
  });
});
