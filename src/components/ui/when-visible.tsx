import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Renders `children` once their place comes near the screen: a lazy part below the
 * fold (its code, its data) then costs nothing on the first paint. Where IntersectionObserver is
 * missing (tests, old browsers) it renders at once. `minHeight` keeps the place so that scrolling
 * to an anchor below it lands where it will be. `ready` false holds off looking (what is above
 * is still loading, so the place is not yet where it will be).
 */
export function WhenVisible({
  children,
  minHeight,
  margin = '300px',
  ready = true,
}: {
  children: ReactNode;
  minHeight: string;
  margin?: string;
  ready?: boolean;
}) {
  const [visible, setVisible] = useState(() => typeof IntersectionObserver === 'undefined');
  const place = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = place.current;
    if (visible || !ready || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setVisible(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible, ready, margin]);

  return visible ? <>{children}</> : <div ref={place} style={{ minHeight }} />;
}
