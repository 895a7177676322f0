import { describe, expect, it } from 'vitest';
import { formatWindow, freeCancellationText, isLateCancel, lateCancelStartsAt, lateCancelWarning, parsePgInterval } from './late-cancel';

const H = 3_600_000;
const start = new Date('2025-11-12T18:00:00Z');
const booking = { startsAt: start, lateCancelWindow: '12:00:00', paymentStatus: 'completed' };

describe('isLateCancel', () => {
  it('is late from exactly 12 hours before the start, and not a millisecond earlier', () => {
    expect(isLateCancel(booking, new Date(start.getTime() - 12 * H))).toBe(true);
    expect(isLateCancel(booking, new Date(start.getTime() - 12 * H - 1))).toBe(false);
    expect(isLateCancel(booking, new Date(start.getTime() - H))).toBe(true);
  });

  it('uses the class’s own window, and the 12-hour default when it has none', () => {
    const wide = { ...booking, lateCancelWindow: '1 day 02:00:00' };
    expect(lateCancelStartsAt(wide)).toEqual(new Date(start.getTime() - 26 * H));
    expect(isLateCancel(wide, new Date(start.getTime() - 20 * H))).toBe(true);
    expect(lateCancelStartsAt({ startsAt: start, lateCancelWindow: null })).toEqual(new Date(start.getTime() - 12 * H));
    expect(isLateCancel({ ...booking, lateCancelWindow: '00:00:00' }, new Date(start.getTime() - 1))).toBe(false);
  });

  it('never counts a pending (unpaid) booking', () => {
    expect(isLateCancel({ ...booking, paymentStatus: 'pending' }, new Date(start.getTime() - H))).toBe(false);
  });
});

describe('parsePgInterval', () => {
  it('reads Postgres’ default interval output', () => {
    expect(parsePgInterval('12:00:00')).toBe(12 * H);
    expect(parsePgInterval('02:30:00')).toBe(2.5 * H);
    expect(parsePgInterval('7 days')).toBe(168 * H);
    expect(parsePgInterval('1 day')).toBe(24 * H);
    expect(parsePgInterval('1 day 02:00:00')).toBe(26 * H);
    expect(parsePgInterval('00:00:00')).toBe(0);
  });

  it('gives null for anything else', () => {
    expect(parsePgInterval('')).toBeNull();
    expect(parsePgInterval(null)).toBeNull();
    expect(parsePgInterval('12 hours please')).toBeNull();
    expect(parsePgInterval('1 mon')).toBeNull();
  });
});

describe('lateCancelWarning', () => {
  it('words the window in its largest whole unit', () => {
    expect(lateCancelWarning('12:00:00')).toBe('This class starts within 12 hours: cancelling now still counts against your plan.');
    expect(formatWindow(24 * H)).toBe('1 day');
    expect(formatWindow(H)).toBe('1 hour');
    expect(formatWindow(1.5 * H)).toBe('90 minutes');
  });
});

describe('freeCancellationText', () => {
  it("says the class's window, or the studio default when it has none", () => {
    expect(freeCancellationText('1 day')).toBe('Free cancellation up to 1 day before the start.');
    expect(freeCancellationText('1 day 00:00:00')).toBe('Free cancellation up to 1 day before the start.');
    expect(freeCancellationText(null)).toBe('Free cancellation up to 12 hours before the start.');
  });
});
