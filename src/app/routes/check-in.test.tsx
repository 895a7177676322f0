import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';

// Issue 28: a member checks in to their booked class with the day's door code.

describe('/check-in', () => {
  it('checks the member in with the door code, and shows the server refusal for a wrong one', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    const codes: unknown[] = [];
    server.use(
      memberHandler(member),
      rpc('check_in_with_code', ({ args }) => {
        codes.push(args.p_code);
        return args.p_code === '4821'
          ? { booking_id: 'b-1', class_id: 'c-1', class_name: 'Breakfast Club', start_time: '2030-03-04T07:15:00Z' }
          : postgrestError({
              code: 'P0001',
              message: "That is not today's door code. Check the code at the door and try again.",
              hint: 'check_in_wrong_code',
            });
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
});
