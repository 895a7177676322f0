import { describe, expect, it } from 'vitest';
import { spotsLabel, spotsLevel } from './spots-badge';

describe('spots', () => {
  it('is yellow (low) at exactly 3 and below, not at 4', () => {
    expect(spotsLevel(4)).toBe('available');
    expect(spotsLevel(3)).toBe('low');
    expect(spotsLevel(1)).toBe('low');
  });
  it('is Fully Booked at 0', () => {
    expect(spotsLevel(0)).toBe('full');
    expect(spotsLabel(0)).toBe('Fully Booked');
    expect(spotsLevel(-1)).toBe('full');
  });
  it('labels the count in words', () => {
    expect(spotsLabel(1)).toBe('1 spot left');
    expect(spotsLabel(3)).toBe('3 spots left');
  });
});
