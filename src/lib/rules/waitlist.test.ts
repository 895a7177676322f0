import { describe, expect, it } from 'vitest';
import { isWaitlistClosed, waitlistClosesAt } from './waitlist';

const start = '2026-12-01T18:00:00.000Z';

describe('waitlist cut-off', () => {
  it('closes the class window before the start, 2 hours by default', () => {
    expect(waitlistClosesAt({ start_time: start }).toISOString()).toBe('2026-12-01T16:00:00.000Z');
    expect(waitlistClosesAt({ start_time: start, waitlist_closes_before: '1 day 00:30:00' }).toISOString()).toBe('2026-11-30T17:30:00.000Z');
    expect(waitlistClosesAt({ start_time: start, waitlist_closes_before: 'nonsense' }).toISOString()).toBe('2026-12-01T16:00:00.000Z');
  });

  it('is open until the minute before the cut-off and closed from the cut-off on', () => {
    const cls = { start_time: start, waitlist_closes_before: '02:00:00' };
    expect(isWaitlistClosed(cls, new Date('2026-12-01T15:59:59.999Z'))).toBe(false);
    expect(isWaitlistClosed(cls, new Date('2026-12-01T16:00:00.000Z'))).toBe(true);
  });
});
