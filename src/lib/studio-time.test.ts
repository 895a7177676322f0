import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatClassDate, formatClassTime } from './studio-time';

// vi.stubEnv sets process.env.TZ, which Node applies to Date immediately.
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('studio time formatting', () => {
  it('shows London wall-clock time whatever the machine zone', () => {
    for (const zone of ['UTC', 'America/Los_Angeles', 'Asia/Tokyo']) {
      vi.stubEnv('TZ', zone);
      // 23:30 UTC on 1 June is 00:30 BST on Monday 2 June in London.
      expect(new Date(2025, 0, 1).getTimezoneOffset()).toBe(zone === 'UTC' ? 0 : zone === 'Asia/Tokyo' ? -540 : 480);
      expect(formatClassDate('2025-06-01T23:30:00Z')).toBe('Mon, Jun 2');
      expect(formatClassTime('2025-06-01T23:30:00Z')).toBe('12:30 AM');
      expect(formatClassTime('2025-12-01T06:00:00Z')).toBe('6:00 AM');
    }
  });
});
