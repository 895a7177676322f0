import { describe, expect, it } from 'vitest';
import { firstName } from './first-name';

describe('firstName', () => {
  it('takes the first word of the name', () => {
    expect(firstName('  Sam   Member ', 'x@y.z')).toBe('Sam');
  });
  it('falls back to the email before the @', () => {
    expect(firstName('', 'standard@studio.test')).toBe('standard');
    expect(firstName(null, null)).toBe('');
  });
});
