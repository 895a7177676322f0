import { describe, expect, it } from 'vitest';
import type { AdminWaitlistEntry } from '../api/get-waitlists';
import { groupWaitlists } from './waitlist-groups';

const spin = { id: 'c-spin', name: 'Spin', startTime: '2026-12-02T18:00:00.000Z', trainer: 'Coach Alex' };
const yoga = { id: 'c-yoga', name: 'Yoga', startTime: '2026-12-01T07:00:00.000Z', trainer: 'Coach Bea' };
const entry = (seq: number, cls: AdminWaitlistEntry['class'], email: string): AdminWaitlistEntry => ({
  id: `w-${seq}`,
  seq,
  joinedAt: '2026-11-20T10:00:00.000Z',
  member: { name: null, email },
  class: cls,
});

describe('groupWaitlists', () => {
  it('groups by class, soonest first, with positions in joining order', () => {
    const groups = groupWaitlists([entry(9, spin, 'c@x'), entry(3, yoga, 'b@x'), entry(2, spin, 'a@x'), entry(12, spin, 'd@x')]);
    expect(groups.map((g) => g.class.name)).toEqual(['Yoga', 'Spin']);
    expect(groups[1]!.entries.map((e) => [e.position, e.member.email])).toEqual([
      [1, 'a@x'],
      [2, 'c@x'],
      [3, 'd@x'],
    ]);
  });

  it('is empty without rows', () => {
    expect(groupWaitlists([])).toEqual([]);
  });
});
