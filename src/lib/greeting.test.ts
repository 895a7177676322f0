import { describe, expect, it } from 'vitest';
import { greeting } from './greeting';

describe('greeting', () => {
  it('uses the first name, or "there" without one', () => {
    expect(greeting('Tom Baker')).toBe('Hi Tom,');
    expect(greeting('  Priya  ')).toBe('Hi Priya,');
    expect(greeting(null)).toBe('Hi there,');
    expect(greeting('   ')).toBe('Hi there,');
  });
});
