import { Button } from '@/components/ui/button';
import type { blockedLabel } from '../lib/class-facts';

/** Why a class cannot be booked, said on a disabled button (the member's own booking or hold in outline). */
export function BlockedButton({ blocked }: { blocked: NonNullable<ReturnType<typeof blockedLabel>> }) {
  return (
    <Button variant={blocked.tone === 'held' ? 'outline' : 'primary'} className="w-full" disabled>
      {blocked.label}
    </Button>
  );
}
