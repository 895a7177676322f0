import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * The narrow-screen menu of the header and the member navigation: a toggle button with
 * aria-expanded/aria-controls and a panel. The menu belongs to the location it was opened at, so
 * any navigation closes it; Escape closes it and puts focus back on the toggle.
 *
 * On a page whose app starts after its first paint (`/`, decision 0014) the page's loader opens
 * and closes the menu itself until then (scripts/hydrate-loader.ts). The app starts from the
 * server's closed menu, as hydration must, then takes over whatever is on screen; and a press
 * goes by what the toggle shows, so one press always does one thing.
 */
export function useMenuToggle() {
  const location = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    // Once, as the app starts: opened before it was live, the menu stays open.
    if (buttonRef.current?.getAttribute('aria-expanded') === 'true') setOpenAt(location.key);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the state on screen when the app starts, not on later renders
  }, []);

  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setOpenAt(null);
      buttonRef.current?.focus();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return {
    open,
    close: () => setOpenAt(null),
    buttonProps: {
      ref: buttonRef,
      type: 'button' as const,
      'aria-expanded': open,
      'aria-controls': panelId,
      onClick: () => setOpenAt(buttonRef.current?.getAttribute('aria-expanded') === 'true' ? null : location.key),
    },
    panelProps: { id: panelId, hidden: !open },
  };
}
