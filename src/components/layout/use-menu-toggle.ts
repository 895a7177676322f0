import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * The narrow-screen menu of the header and the member navigation: a toggle button with
 * aria-expanded/aria-controls and a panel. The menu belongs to the location it was opened at, so
 * any navigation closes it; Escape closes it and puts focus back on the toggle.
 */
export function useMenuToggle() {
  const location = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);

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
      onClick: () => setOpenAt(open ? null : location.key),
    },
    panelProps: { id: panelId, hidden: !open },
  };
}
