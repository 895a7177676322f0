import { describe, expect, it } from 'vitest';
import { parseHours } from './send-reminders';

describe('scripts/send-reminders --hours', () => {
  it('defaults to the scheduled function window and accepts 1 to 168', () => {
    expect(parseHours([])).toBe(24);
    expect(parseHours(['--hours', '48'])).toBe(48);
    expect(() => parseHours(['--hours', '0'])).toThrow('--hours must be a whole number from 1 to 168');
    expect(() => parseHours(['--hours', 'soon'])).toThrow();
  });
});
