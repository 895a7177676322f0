import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * The msw server for screen tests. Tests add handlers with `server.use(...)`; unhandled requests
 * fail. The defaults: every admin screen runs the watchdog when the portal opens (decision
 * 0046), answered here with no open alerts; the booking screens read the attendance policy
 * (decision 0080), answered as off (no rows), My Bookings reads the member's standing under it
 * (nothing to say), Members Management lists no late cancellations or no-shows, a paid class
 * finds no credit to book it with (decision 0102), a member has no balance and Analytics holds no
 * money for members (decision 0101). A test that cares overrides them.
 */
export const server = setupServer(
  http.post('*/rest/v1/rpc/admin_check_system_health', () => HttpResponse.json(0)),
  http.get('*/rest/v1/attendance_policies', () => HttpResponse.json([])),
  http.post('*/rest/v1/rpc/attendance_incidents_of', () => HttpResponse.json([])),
  http.post('*/rest/v1/rpc/my_credit_for_class', () =>
    HttpResponse.json({
      credit_id: null,
      expires_at: null,
      refusal: 'no_credit',
      message: 'You have no class credit to use for this class.',
    }),
  ),
  http.post('*/rest/v1/rpc/my_balance', () => HttpResponse.json(0)),
  http.post('*/rest/v1/rpc/my_balance_history', () => HttpResponse.json([])),
  http.post('*/rest/v1/rpc/admin_money_held', () =>
    HttpResponse.json({ vouchers: 0, voucher_count: 0, balances: 0, members_with_balance: 0, total: 0 }),
  ),
  http.post('*/rest/v1/rpc/my_attendance_standing', () =>
    HttpResponse.json({
      late_cancel_fee: null,
      no_show_fee: null,
      strike_limit: null,
      block_days: null,
      strikes: 0,
      blocked_until: null,
      owed: 0,
    }),
  ),
);
