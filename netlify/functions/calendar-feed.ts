import { bookingEvent, CALENDAR_MIME_TYPE } from '../../src/lib/calendar/booking-event';
import { buildCalendar } from '../../src/lib/calendar/build-calendar';
import { STUDIO } from '../../src/config/studio';
import { compositeRow, compositeRows } from '../../src/lib/composite-row';
import { methodNotAllowed } from '../lib/http';
import { ConfigError, readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/** The token format rotate_calendar_token issues (and the column's check constraint allows). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,64}$/;
/** How often subscribed calendar apps should fetch again. */
const REFRESH_INTERVAL = 'PT1H';

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

/**
 * GET /.netlify/functions/calendar-feed?token=<secret> → text/calendar of the member's confirmed,
 * not yet ended bookings. Calendar apps cannot sign in, so the secret in the URL is the key:
 * looked up with the service role; an unknown, malformed or revoked token is a 404 (the same
 * answer, so the endpoint says nothing about which tokens exist).
 */
export default async function calendarFeed(req: Request): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed('GET');
  const token = new URL(req.url).searchParams.get('token') ?? '';
  if (!TOKEN_PATTERN.test(token)) return text(404, 'Calendar not found');
  try {
    const env = readServerEnv();
    const { data, error } = await serviceDb(env).rpc('calendar_feed', { p_token: token }).maybeSingle();
    if (error) throw new Error(`calendar_feed failed: ${error.code} ${error.message}`);
    // No row for an unknown or revoked token.
    if (!data) return text(404, 'Calendar not found');
    const feed = compositeRow<'calendar_feed', 'events'>(data);

    const events = compositeRows<'calendar_event', 'booking_id' | 'name' | 'trainer' | 'start_time' | 'duration'>(feed.events).map((e) =>
      bookingEvent(
        {
          bookingId: e.booking_id,
          className: e.name,
          trainer: e.trainer,
          startTime: e.start_time,
          durationMinutes: e.duration,
          description: e.description,
          location: e.location,
          directions: e.directions,
        },
        env.siteUrl,
      ),
    );
    const body = buildCalendar(events, { name: `${STUDIO.name} bookings`, refreshInterval: REFRESH_INTERVAL });
    return new Response(req.method === 'HEAD' ? null : body, {
      status: 200,
      headers: {
        'content-type': CALENDAR_MIME_TYPE,
        'content-disposition': 'inline; filename="finer-fitness-bookings.ics"',
        // Revoking must take effect at the next fetch: no shared caches, always revalidate.
        'cache-control': 'private, no-cache',
      },
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`[calendar-feed] ${error.message}`);
      return text(503, 'The calendar feed is unavailable, please try again later.');
    }
    console.error('[calendar-feed] unexpected error', error);
    return text(500, 'The calendar feed is unavailable, please try again later.');
  }
}
