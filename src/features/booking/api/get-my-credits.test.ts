import { describe, expect, it } from 'vitest';
import { summariseCredits } from './get-my-credits';

describe('summariseCredits', () => {
  it('counts each kind and keeps the soonest expiry, sessions before guest passes', () => {
    const rows = [
      { kind: 'guest_pass' as const, valid_from: '2026-11-01T00:00:00Z', expires_at: '2026-12-01T00:00:00Z' },
      { kind: 'personal_training' as const, valid_from: '2026-11-01T00:00:00Z', expires_at: '2026-12-05T00:00:00Z' },
      { kind: 'guest_pass' as const, valid_from: '2026-11-01T00:00:00Z', expires_at: '2026-12-09T00:00:00Z' },
      { kind: 'personal_training' as const, valid_from: '2026-11-01T00:00:00Z', expires_at: '2027-01-05T00:00:00Z' },
    ];
    expect(summariseCredits(rows)).toEqual([
      { kind: 'personal_training', count: 2, nextExpiry: '2026-12-05T00:00:00Z' },
      { kind: 'guest_pass', count: 2, nextExpiry: '2026-12-01T00:00:00Z' },
    ]);
    expect(summariseCredits([])).toEqual([]);
  });
});
