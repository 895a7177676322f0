import { describe, expect, it } from 'vitest';
import { parseFilter, type ChangeFilter } from './change-filter';
import { deliveredOldRecord, passesFilter, type ChangeEvent } from './realtime-server';

// Hosted Realtime only knows what logical replication carries of the old row (the primary key,
// or every column with REPLICA IDENTITY FULL) and cannot check a deleted row against RLS.

function deletion(identity: ChangeEvent['replica_identity'], rls: boolean): ChangeEvent {
  return {
    schema: 'public',
    table: 'bookings',
    type: 'DELETE',
    commit_timestamp: '2026-01-01T00:00:00.000Z',
    record: null,
    old_record: { id: 'b1', class_id: 'c1', member_id: 'm1' },
    columns: [],
    primary_key: ['id'],
    replica_identity: identity,
    rls_enabled: rls,
  };
}

const filter = (f: string) => parseFilter(f) as ChangeFilter;

describe('DELETE events', () => {
  it('with the default replica identity: old_record is the key, only key filters match', () => {
    const change = deletion('d', true);
    expect(deliveredOldRecord(change)).toEqual({ id: 'b1' });
    expect(passesFilter(filter('id=eq.b1'), change)).toBe(true);
    expect(passesFilter(filter('class_id=eq.c1'), change)).toBe(false);
    expect(passesFilter(null, change)).toBe(true);
  });

  it('with REPLICA IDENTITY FULL: filters on any column match; RLS still cuts old_record to the key', () => {
    expect(passesFilter(filter('class_id=eq.c1'), deletion('f', true))).toBe(true);
    expect(passesFilter(filter('class_id=eq.c2'), deletion('f', true))).toBe(false);
    expect(deliveredOldRecord(deletion('f', true))).toEqual({ id: 'b1' });
    expect(deliveredOldRecord(deletion('f', false))).toEqual({ id: 'b1', class_id: 'c1', member_id: 'm1' });
  });

  it('UPDATE old_record follows the replica identity', () => {
    const update: ChangeEvent = { ...deletion('d', true), type: 'UPDATE', record: { id: 'b1', class_id: 'c2', member_id: 'm1' } };
    expect(deliveredOldRecord(update)).toEqual({ id: 'b1' });
    expect(deliveredOldRecord({ ...update, replica_identity: 'f' })).toEqual({ id: 'b1', class_id: 'c1', member_id: 'm1' });
    expect(passesFilter(filter('class_id=eq.c2'), update)).toBe(true);
  });
});
