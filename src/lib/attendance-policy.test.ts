import { describe, expect, it } from 'vitest';
import { lateCancelFeeText, policyAt, policyNote, standingLines, strikesText, type AttendancePolicy } from './attendance-policy';

const off: AttendancePolicy = {
  validFrom: '2026-11-01T00:00:00Z',
  lateCancelFee: null,
  noShowFee: null,
  strikeLimit: null,
  blockDays: null,
};
const fees: AttendancePolicy = { validFrom: '2026-12-01T00:00:00Z', lateCancelFee: 5, noShowFee: 7.5, strikeLimit: null, blockDays: null };
const strikes: AttendancePolicy = { validFrom: '2026-12-10T00:00:00Z', lateCancelFee: null, noShowFee: null, strikeLimit: 1, blockDays: 1 };

describe('the attendance policy in words (decision 0080)', () => {
  it('finds the policy in force at an instant, whatever the order of the rows', () => {
    const rows = [strikes, off, fees];
    expect(policyAt(rows, new Date('2026-10-31T23:59:59Z'))).toBeNull();
    expect(policyAt(rows, new Date('2026-11-15T00:00:00Z'))).toBe(off);
    expect(policyAt(rows, new Date('2026-12-01T00:00:00Z'))).toBe(fees);
    expect(policyAt(rows, new Date('2027-01-01T00:00:00Z'))).toBe(strikes);
  });

  it('says nothing while the policy is off', () => {
    expect(policyNote(null, '12 hours')).toBeNull();
    expect(policyNote(off, '12 hours')).toBeNull();
    expect(lateCancelFeeText(off)).toBeNull();
  });

  it('says the fees before booking, with the class’s window or each class’s', () => {
    expect(policyNote(fees, '12 hours')).toBe(
      'Attendance policy: cancelling less than 12 hours before the start costs £5.00; not coming without cancelling costs £7.50. Fees are charged to your saved card, or recorded as owed.',
    );
    expect(policyNote(fees, null)).toContain("cancelling inside a class's free cancellation time costs £5.00");
  });

  it('says the strikes rule in the singular and plural', () => {
    expect(strikesText(strikes)).toBe('1 late cancellation or no-show within 30 days stops you booking for 1 day.');
    expect(policyNote({ ...strikes, strikeLimit: 3, blockDays: 14 }, '12 hours')).toBe(
      'Attendance policy: 3 late cancellations or no-shows within 30 days stop you booking for 14 days.',
    );
    expect(lateCancelFeeText({ ...strikes, strikeLimit: 3, blockDays: 14 })).toBe(
      'It counts as a strike: 3 late cancellations or no-shows within 30 days stop you booking for 14 days.',
    );
  });

  it('says the member’s standing only when there is something to say', () => {
    const when = (iso: string) => `at ${iso}`;
    expect(standingLines(undefined, when)).toEqual([]);
    expect(standingLines({ strikes: 0, strikeLimit: 3, blockedUntil: null, owed: 0 }, when)).toEqual([]);
    expect(standingLines({ strikes: 2, strikeLimit: 3, blockedUntil: null, owed: 5 }, when)).toEqual([
      '2 late cancellations or no-shows within 30 days (3 stop you booking).',
      'You owe £5.00 in attendance fees: the studio will be in touch.',
    ]);
    expect(standingLines({ strikes: 3, strikeLimit: 3, blockedUntil: '2026-12-09T18:00:00Z', owed: 0 }, when)).toEqual([
      'You cannot book classes until at 2026-12-09T18:00:00Z.',
    ]);
    // A strike without a strikes rule (a fee only) is not a strike to count.
    expect(standingLines({ strikes: 1, strikeLimit: null, blockedUntil: null, owed: 0 }, when)).toEqual([]);
  });
});
