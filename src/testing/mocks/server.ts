import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * The msw server for screen tests. Tests add handlers with `server.use(...)`; unhandled requests
 * fail. The one default: every admin screen runs the watchdog when the portal opens (decision
 * 0046), answered here with no open alerts; a test that cares overrides it.
 */
export const server = setupServer(http.post('*/rest/v1/rpc/admin_check_system_health', () => HttpResponse.json(0)));
