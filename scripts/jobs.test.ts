import { describe, expect, it } from 'vitest';
import { parseAt } from './jobs';

describe('npm run jobs -- --at', () => {
  it('runs as of now without --at, and as of the given ISO time with it', () => {
    const now = new Date('2027-01-01T00:00:00Z');
    expect(parseAt([], now)).toBe(now);
    expect(parseAt(['--at', '2027-02-15T10:00:00Z'], now)).toEqual(new Date('2027-02-15T10:00:00Z'));
  });

  it.each([[['--at']], [['--at', 'next month']], [['--at', '15/02/2027']]])('refuses %j with a clear message', (argv) => {
    expect(() => parseAt(argv)).toThrow(/--at needs an ISO time such as 2027-01-15T09:00:00Z/);
  });
});
