import { describe, expect, it } from 'vitest';
import { signInErrorMessage } from './sign-in-error-message';

describe('signInErrorMessage', () => {
  it('maps GoTrue messages to the spec wording', () => {
    expect(signInErrorMessage({ message: 'Invalid login credentials', status: 400 })).toBe(
      "Invalid email or password. Please check your credentials or sign up if you don't have an account.",
    );
    expect(signInErrorMessage({ message: 'Email not confirmed', status: 400 })).toBe(
      'Please check your email and confirm your account before signing in.',
    );
    expect(signInErrorMessage({ message: 'Login failed: Email not confirmed yet' })).toBe(
      'Please check your email and confirm your account before signing in.',
    );
    expect(signInErrorMessage({ message: 'User not found', status: 404 })).toBe('No account found with this email. Please sign up first.');
    expect(signInErrorMessage({ message: 'Too many requests', status: 429 })).toBe(
      'Too many sign-in attempts. Please wait a moment before trying again.',
    );
  });
  it('treats any 429 as too many attempts', () => {
    expect(signInErrorMessage({ message: 'For security purposes, you can only request this after 30 seconds.', status: 429 })).toBe(
      'Too many sign-in attempts. Please wait a moment before trying again.',
    );
  });
  it('shows other messages as they are, with a default when there is none', () => {
    expect(signInErrorMessage({ message: 'Signups not allowed for this instance', status: 422 })).toBe(
      'Signups not allowed for this instance',
    );
    expect(signInErrorMessage({ message: '' })).toBe('Authentication failed. Please try again.');
    expect(signInErrorMessage(null)).toBe('Authentication failed. Please try again.');
    expect(signInErrorMessage({ message: '{}', status: 500 })).toBe('Authentication failed. Please try again.');
  });
});
