import { describe, expect, it } from 'vitest';
import { dashboardUsageLevel, membershipUsageLevel, membershipUsageMessage, usagePercent } from './usage';

describe('membershipUsageLevel', () => {
  it('is normal just under 80%', () => {
    expect(membershipUsageLevel(79, 100)).toBe('ok');
    expect(membershipUsageLevel(9, 12)).toBe('ok'); // 75%
  });
  it('warns at exactly 80% and above', () => {
    expect(membershipUsageLevel(16, 20)).toBe('warning');
    expect(membershipUsageLevel(10, 12)).toBe('warning'); // 83%
  });
  it('stays a warning at exactly 100%: over only when used exceeds total', () => {
    expect(membershipUsageLevel(12, 12)).toBe('warning');
    expect(membershipUsageLevel(13, 12)).toBe('over');
  });
  it('treats pay-as-you-go (999) as effectively unlimited', () => {
    expect(membershipUsageLevel(30, 999)).toBe('ok');
  });
  it('gives the spec messages', () => {
    expect(membershipUsageMessage('warning')).toBe("You're approaching your monthly limit.");
    expect(membershipUsageMessage('over')).toBe("You've exceeded your monthly limit. Consider upgrading your plan.");
    expect(membershipUsageMessage('ok')).toBeNull();
  });
  it('says the limit is reached at exactly the limit, not that it is approaching', () => {
    expect(membershipUsageMessage(membershipUsageLevel(12, 12), 12, 12)).toBe("You've reached your monthly limit.");
    expect(membershipUsageMessage(membershipUsageLevel(11, 12), 11, 12)).toBe("You're approaching your monthly limit.");
  });
});

describe('dashboardUsageLevel', () => {
  it('switches to yellow at exactly 75% and red at exactly 90%', () => {
    expect(dashboardUsageLevel(74, 100)).toBe('ok');
    expect(dashboardUsageLevel(75, 100)).toBe('warning');
    expect(dashboardUsageLevel(9, 12)).toBe('warning');
    expect(dashboardUsageLevel(89, 100)).toBe('warning');
    expect(dashboardUsageLevel(18, 20)).toBe('danger');
    expect(dashboardUsageLevel(25, 20)).toBe('danger');
  });
  it('is normal for an empty plan', () => {
    expect(dashboardUsageLevel(0, 0)).toBe('ok');
  });
});

describe('usagePercent', () => {
  it('clamps the bar width to 0..100', () => {
    expect(usagePercent(6, 12)).toBe(50);
    expect(usagePercent(30, 12)).toBe(100);
    expect(usagePercent(0, 0)).toBe(0);
  });
});
