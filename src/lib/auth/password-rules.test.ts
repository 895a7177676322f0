import { describe, expect, it } from 'vitest';
import { emailSchema, newPasswordSchema, passwordSchema } from './password-rules';

const changeError = (password: string, confirm: string) =>
  newPasswordSchema.safeParse({ password, confirm }).error?.issues[0]?.message ?? null;

describe('newPasswordSchema', () => {
  it('checks both fields, then length, then match', () => {
    expect(changeError('', 'abcdef')).toBe('Please fill in both password fields');
    expect(changeError('abcdef', '')).toBe('Please fill in both password fields');
    expect(changeError('abcde', 'abcde')).toBe('Password must be at least 6 characters long');
    expect(changeError('abcdef', 'abcdeg')).toBe('Passwords do not match');
    expect(changeError('abcdef', 'abcdef')).toBeNull();
  });
});

describe('credentials', () => {
  it('requires an email of email shape, trimmed', () => {
    expect(emailSchema.safeParse('  ').error?.issues[0]?.message).toBe('Email is required');
    expect(emailSchema.safeParse('sam@').error?.issues[0]?.message).toBe('Please enter a valid email address');
    expect(emailSchema.parse(' sam@studio.test ')).toBe('sam@studio.test');
  });

  it('requires a password of at least 6 characters', () => {
    expect(passwordSchema.safeParse('').error?.issues[0]?.message).toBe('Password is required');
    expect(passwordSchema.safeParse('abcde').error?.issues[0]?.message).toBe('Password must be at least 6 characters long');
    expect(passwordSchema.safeParse('abcdef').success).toBe(true);
  });
});
