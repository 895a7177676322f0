import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it('takes the first letters of the first and last names', () => {
    expect(initials('Ada Lovelace', 'ada@example.com')).toBe('AL');
    expect(initials('  mary  ann  smith ', null)).toBe('MS');
  });
  it('uses the first two letters of a single name', () => {
    expect(initials('Cher', 'c@example.com')).toBe('CH');
  });
  it('falls back to the first two letters of the email when there is no name', () => {
    expect(initials(null, 'payg@studio.test')).toBe('PA');
    expect(initials('   ', 'zo@x.io')).toBe('ZO');
  });
  it('returns an empty string when there is neither', () => {
    expect(initials(null, null)).toBe('');
  });
});
