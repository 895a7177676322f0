import { describe, expect, it } from 'vitest';
import { canMarkAttendance, rosterCounts } from './attendance';

describe('attendance rules', () => {
  it('opens marking exactly one hour before the start', () => {
    const start = '2026-12-01T18:00:00.000Z';
    expect(canMarkAttendance(start, new Date('2026-12-01T16:59:59.999Z'))).toBe(false);
    expect(canMarkAttendance(start, new Date('2026-12-01T17:00:00.000Z'))).toBe(true);
    expect(canMarkAttendance(start, new Date('2026-12-03T09:00:00.000Z'))).toBe(true);
  });

  it('counts booked, attended, no-show and unmarked', () => {
    expect(rosterCounts([{ attendance: 'attended' }, { attendance: null }, { attendance: 'no_show' }, { attendance: 'attended' }])).toEqual(
      {
        booked: 4,
        attended: 2,
        noShow: 1,
        unmarked: 1,
      },
    );
    expect(rosterCounts([])).toEqual({ booked: 0, attended: 0, noShow: 0, unmarked: 0 });
  });
});
