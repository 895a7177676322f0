import { describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { makeClass, restGet } from '@/testing/supabase-mocks';
import type { ClassRow } from '@/lib/supabase';
import { studioDayAfter } from '@/lib/studio-time';
import { getClassWindow, WINDOW_LIMIT } from './get-class-window';

const FROM = new Date('2030-03-04T09:00:00Z');
const at = (hours: number) => new Date(FROM.getTime() + hours * 3600_000).toISOString();

/** A fake PostgREST over `rows`: start_time gte/lt, start order, limit. */
function serve(rows: ClassRow[]) {
  server.use(
    restGet('classes', ({ url }) => {
      const bounds = url.searchParams.getAll('start_time');
      const inRange = rows
        .filter((c) => bounds.every((b) => (b.startsWith('gte.') ? c.start_time >= new Date(b.slice(4)).toISOString() : c.start_time < new Date(b.slice(3)).toISOString())))
        .sort((a, b) => a.start_time.localeCompare(b.start_time));
      return inRange.slice(0, Number(url.searchParams.get('limit')));
    }),
  );
}

describe('getClassWindow', () => {
  it('reads up to the end of the seventh London day and says whether more follow', async () => {
    serve([makeClass({ id: 'a', start_time: at(1) }), makeClass({ id: 'b', start_time: at(24 * 8) })]);
    const w = await getClassWindow(FROM);
    expect(w.classes.map((c) => c.id)).toEqual(['a']);
    expect(w.until).toEqual(studioDayAfter(FROM, 7));
    expect(w.hasMore).toBe(true);
    const next = await getClassWindow(w.until);
    expect(next.classes.map((c) => c.id)).toEqual(['b']);
    expect(next.hasMore).toBe(false);
  });

  it('jumps over a week without classes to the next one', async () => {
    serve([makeClass({ id: 'later', start_time: at(24 * 20) })]);
    const w = await getClassWindow(FROM);
    expect(w.classes.map((c) => c.id)).toEqual(['later']);
  });

  it('ends a crowded window before its last start time and resumes there', async () => {
    // WINDOW_LIMIT + 5 classes in the week, the last start time shared by several.
    const rows = Array.from({ length: WINDOW_LIMIT + 5 }, (_, i) => makeClass({ id: `c${i}`, start_time: at(1 + Math.min(i, WINDOW_LIMIT - 3) / 10) }));
    serve(rows);
    const w = await getClassWindow(FROM);
    expect(w.hasMore).toBe(true);
    const lastShown = w.classes.at(-1)!.start_time;
    expect(w.classes.every((c) => c.start_time < w.until.toISOString())).toBe(true);
    const rest = await getClassWindow(w.until);
    // Every class is read exactly once across the two windows.
    expect([...w.classes, ...rest.classes].map((c) => c.id).sort()).toEqual(rows.map((c) => c.id).sort());
    expect(rest.classes[0]!.start_time > lastShown).toBe(true);
  });
});
