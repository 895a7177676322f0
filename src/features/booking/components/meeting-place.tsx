import { STUDIO } from '@/config/studio';

/**
 * Where a class meets: its meeting point (with the address and a map link) when it has one, else
 * the hall. Used by the schedule cards and My Bookings.
 */
export function MeetingPlace({ name, mapUrl, location }: { name?: string | null; mapUrl?: string | null; location?: string | null }) {
  if (!name) return <>{STUDIO.hall}</>;
  return (
    <span>
      <span className="font-medium text-slate-900">Meet at {name}</span>
      {location && location !== name && <span className="block text-xs text-slate-600">{location}</span>}
      {mapUrl && (
        <a href={mapUrl} target="_blank" rel="noopener noreferrer" className="text-xs font-medium text-brand-700 underline">
          Map<span className="sr-only"> of {name} (opens in a new tab)</span>
        </a>
      )}
    </span>
  );
}
