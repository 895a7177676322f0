import { describe, expect, it } from 'vitest';
import { passwordChangeError } from './password-rules';

describe('passwordChangeError', () => {
  it('checks both fields, then length, then match', () => {
    expect(passwordChangeError('', 'abcdef')).toBe('Please fill in both password fields');
    expect(passwordChangeError('abcdef', '')).toBe('Please fill in both password fields');
    expect(passwordChangeError('abcde', 'abcde')).toBe('Password must be at least 6 characters long');
    expect(passwordChangeError('abcdef', 'abcdeg')).toBe('Passwords do not match');
    expect(passwordChangeError('abcdef', 'abcdef')).toBeNull();
  });
});
