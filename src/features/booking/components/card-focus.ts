import { createContext, useCallback, useContext, useMemo, useState } from 'react';

/**
 * Which class card keeps keyboard focus (issue 31). Pressing a card's action (Book Now, Cancel
 * Booking, Join or Leave Waitlist) replaces that button: it turns busy, then becomes another
 * (Cancel Booking, Booked, Leave Waitlist), and the browser drops focus to the page body, so a
 * keyboard or screen-reader user was thrown back to the top. The card holds focus instead: on its
 * new button once there is one to press, else on the card itself (ClassCard), until the member
 * moves focus elsewhere.
 */
export type CardFocus = {
  /** The class whose card holds focus, if any. */
  classId: string | null;
  hold: (classId: string) => void;
  release: (classId: string) => void;
};

export const CardFocusContext = createContext<CardFocus | null>(null);

/** One holder per list of cards (ClassList provides it). */
export function useCardFocusState(): CardFocus {
  const [classId, setClassId] = useState<string | null>(null);
  const hold = useCallback((id: string) => setClassId(id), []);
  const release = useCallback((id: string) => setClassId((current) => (current === id ? null : current)), []);
  return useMemo(() => ({ classId, hold, release }), [classId, hold, release]);
}

export const useCardFocus = () => useContext(CardFocusContext);
