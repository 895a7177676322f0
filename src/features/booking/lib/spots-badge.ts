/** Spots badge rules (spec section 9): yellow at 3 or fewer spots left, 'Fully Booked' at 0. */
export const LOW_SPOTS_THRESHOLD = 3;

export type SpotsLevel = 'full' | 'low' | 'available';

export function spotsLevel(spotsLeft: number): SpotsLevel {
  if (spotsLeft <= 0) return 'full';
  if (spotsLeft <= LOW_SPOTS_THRESHOLD) return 'low';
  return 'available';
}

/** The badge text, so colour is never the only signal. */
export function spotsLabel(spotsLeft: number): string {
  if (spotsLeft <= 0) return 'Fully Booked';
  return spotsLeft === 1 ? '1 spot left' : `${spotsLeft} spots left`;
}
