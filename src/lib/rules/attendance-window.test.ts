import { describe, expect, it } from 'vitest';
import { canMarkAttendance, canMarkNoShow } from './attendance-window';

const start = '2026-12-01T18:00:00.000Z';
const at = (iso: string) => new Date(iso);

describe('attendance window', () => {
  it('opens Attended an hour before the start, inclusive', () => {
    expect(canMarkAttendance(start, at('2026-12-01T16:59:59.999Z'))).toBe(false);
    expect(canMarkAttendance(start, at('2026-12-01T17:00:00.000Z'))).toBe(true);
  });

  it('opens No-show only at the start', () => {
    expect(canMarkNoShow(start, at('2026-12-01T17:48:00.000Z'))).toBe(false);
    expect(canMarkNoShow(start, at('2026-12-01T18:00:00.000Z'))).toBe(true);
  });
});
