import { createContext, useContext, useMemo, useState, useSyncExternalStore } from 'react';

type Listener = () => void;

/**
 * Which class card keeps keyboard focus. Pressing a card's action (Book Now, Cancel
 * Booking, Join or Leave Waitlist) replaces that button: it turns busy, then becomes another
 * (Cancel Booking, Booked, Leave Waitlist), and the browser drops focus to the page body, so a
 * keyboard or screen-reader user was thrown back to the top. The card holds focus instead: on its
 * new button once there is one to press, else on the card itself (ClassCard), until the member
 * moves focus elsewhere.
 *
 * The list's holder is a store, so a change re-renders the two cards it concerns, not the list.
 */
export type CardFocusStore = {
  holder: () => string | null;
  subscribe: (listener: Listener) => () => void;
  hold: (classId: string) => void;
  release: (classId: string) => void;
};

function createCardFocusStore(): CardFocusStore {
  let holder: string | null = null;
  const listeners = new Set<Listener>();
  const set = (next: string | null) => {
    if (next === holder) return;
    holder = next;
    listeners.forEach((listener) => listener());
  };
  return {
    holder: () => holder,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hold: (classId) => set(classId),
    release: (classId) => {
      if (holder === classId) set(null);
    },
  };
}

export const CardFocusContext = createContext<CardFocusStore | null>(null);

/** One holder per list of cards (ClassList provides it). */
export function useCardFocusState(): CardFocusStore {
  const [store] = useState(createCardFocusStore);
  return store;
}

const NO_STORE = () => () => undefined;

/**
 * This card's part: whether it holds focus, and hold/release for it. A card re-renders only when
 * its own answer changes: pressing Book Now on one card of a long list renders that card alone
 * (the press's next paint, what INP counts). Null outside a list.
 */
export function useCardFocus(classId: string): { keep: boolean; hold: () => void; release: () => void } | null {
  const store = useContext(CardFocusContext);
  const holds = () => store?.holder() === classId;
  // The same answer on the server: no card holds focus before the page is used.
  const keep = useSyncExternalStore(store?.subscribe ?? NO_STORE, holds, holds);
  return useMemo(
    () => (store ? { keep, hold: () => store.hold(classId), release: () => store.release(classId) } : null),
    [store, keep, classId],
  );
}
