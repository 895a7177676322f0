import { describe, expect, it } from 'vitest';
import { formatTimeUntil, isLocked, parseUnlockWindow, unlockTime } from './lock-window';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('parseUnlockWindow', () => {
  it('reads days, hours and minutes, singular or plural', () => {
    expect(parseUnlockWindow('3 days')).toBe(3 * DAY);
    expect(parseUnlockWindow('1 day')).toBe(DAY);
    expect(parseUnlockWindow('12 hours')).toBe(12 * HOUR);
    expect(parseUnlockWindow('1 hour')).toBe(HOUR);
    expect(parseUnlockWindow('90 minutes')).toBe(90 * MIN);
    expect(parseUnlockWindow('1 minute')).toBe(MIN);
  });
  it('falls back to 3 days for an empty or malformed window', () => {
    for (const value of [null, undefined, '', 'soon', '3 weeks', '-1 days']) {
      expect(parseUnlockWindow(value)).toBe(3 * DAY);
    }
  });
});

describe('isLocked', () => {
  const start = '2030-01-10T18:00:00Z';
  const premium = { start_time: start, is_premium: true, unlock_for_standard: '3 days' };
  const opensAt = new Date(Date.parse(start) - 3 * DAY);

  it('opens at exactly start minus the window, not a minute earlier', () => {
    expect(unlockTime(premium)).toEqual(opensAt);
    expect(isLocked(premium, { tier: 'standard' }, new Date(opensAt.getTime() - MIN))).toBe(true);
    expect(isLocked(premium, { tier: 'standard' }, new Date(opensAt.getTime() - 1))).toBe(true);
    expect(isLocked(premium, { tier: 'standard' }, opensAt)).toBe(false);
    expect(isLocked(premium, { tier: 'standard' }, new Date(opensAt.getTime() + MIN))).toBe(false);
  });
  it('uses the class window', () => {
    const soon = { ...premium, unlock_for_standard: '2 hours' };
    expect(isLocked(soon, { tier: 'payg' }, new Date(Date.parse(start) - 2 * HOUR - MIN))).toBe(true);
    expect(isLocked(soon, { tier: 'payg' }, new Date(Date.parse(start) - 2 * HOUR))).toBe(false);
  });
  it('never locks premium members or non-premium classes', () => {
    const early = new Date('2029-01-01T00:00:00Z');
    expect(isLocked(premium, { tier: 'premium' }, early)).toBe(false);
    expect(isLocked({ ...premium, is_premium: false }, { tier: 'standard' }, early)).toBe(false);
    expect(unlockTime({ ...premium, is_premium: false })).toBeNull();
  });
  it('locks guests, and trial members except where trial is exempt', () => {
    const early = new Date('2029-01-01T00:00:00Z');
    expect(isLocked(premium, { tier: null }, early)).toBe(true);
    expect(isLocked(premium, { tier: 'trial' }, early)).toBe(true);
    expect(isLocked(premium, { tier: 'trial', trialExempt: true }, early)).toBe(false);
    expect(isLocked(premium, { tier: 'standard', trialExempt: true }, early)).toBe(true);
  });
});

describe('formatTimeUntil', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  it('shows days, hours and minutes', () => {
    expect(formatTimeUntil(new Date(now.getTime() + 2 * DAY + 4 * HOUR + 30 * MIN), now)).toBe('2d 4h 30m');
    expect(formatTimeUntil(new Date(now.getTime() + 3 * HOUR), now)).toBe('3h 0m');
    expect(formatTimeUntil(new Date(now.getTime() + 59 * 1000), now)).toBe('1m');
  });
});
