import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';

// A member checks in to their booked class with the day's door code.

const NOT_REFUSED = { refusal: null, message: null };
const NO_CLASS = { booking_id: null, class_id: null, class_name: null, start_time: null };

describe('/check-in', () => {
  it('checks the member in with the door code, and shows the server refusal for a wrong one', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    const codes: unknown[] = [];
    server.use(
      memberHandler(member),
      rpc('check_in_with_code', ({ args }) => {
        codes.push(args.p_code);
        // A wrong code is answered (the database counts it), not raised.
        return args.p_code === '4821'
          ? { ...NOT_REFUSED, booking_id: 'b-1', class_id: 'c-1', class_name: 'Breakfast Club', start_time: '2030-03-04T07:15:00Z' }
          : {
              ...NO_CLASS,
              refusal: 'check_in_wrong_code',
              message: "That is not today's door code. Check the code at the door and try again.",
            };
      }),
    );
    renderApp('/check-in');
    const code = await screen.findByLabelText(/Door code/);
    await userEvent.type(code, '12');
    await userEvent.click(screen.getByRole('button', { name: 'Check in' }));
    expect(await screen.findByText('Enter the 4-digit code shown at the door')).toBeInTheDocument();
    await userEvent.clear(code);
    await userEvent.type(code, '1111');
    await userEvent.click(screen.getByRole('button', { name: 'Check in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("That is not today's door code.");
    await userEvent.clear(code);
    await userEvent.type(code, '4821');
    await userEvent.click(screen.getByRole('button', { name: 'Check in' }));
    expect(await screen.findByText(/You're checked in to Breakfast Club at 7:15/)).toHaveAttribute('role', 'status');
    expect(codes).toEqual(['1111', '4821']);
  });

  it('after too many wrong codes says when to try again, and is not checked in', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    server.use(
      memberHandler(member),
      rpc('check_in_with_code', () =>
        postgrestError({ code: 'P0001', message: 'Too many wrong codes. Please try again in 12 minutes.', hint: 'too_many_attempts' }),
      ),
    );
    renderApp('/check-in');
    await userEvent.type(await screen.findByLabelText(/Door code/), '4821');
    await userEvent.click(screen.getByRole('button', { name: 'Check in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many wrong codes. Please try again in 12 minutes.');
    expect(screen.queryByText(/You're checked in/)).not.toBeInTheDocument();
  });
});
