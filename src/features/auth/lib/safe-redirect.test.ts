import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it('keeps same-site paths with their query', () => {
    expect(safeRedirect('/book?classId=abc')).toBe('/book?classId=abc');
    expect(safeRedirect('/dashboard')).toBe('/dashboard');
  });
  it('falls back to /my-schedule for anything else', () => {
    for (const value of [
      null,
      '',
      'dashboard',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/signin?redirect=/x',
    ]) {
      expect(safeRedirect(value)).toBe('/my-schedule');
    }
  });
});
