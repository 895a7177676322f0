import type { ClassPlace } from '@/lib/class-place';
import { GuestWaiverFlag } from './guest-waiver-flag';

/**
 * Who a place is for, under the person's name on every roster (decision 0035): a child's parent (the
 * contact), who collects them and their medical notes; a guest's host and their waiver; a member who
 * has not signed the current documents.
 */
export function PlaceDetails({
  place,
}: {
  place: Pick<ClassPlace, 'kind' | 'contact_name' | 'collected_by' | 'medical_notes' | 'documents_current'>;
}) {
  if (place.kind === 'guest') {
    return (
      <div className="mt-1 space-y-1 text-xs text-slate-700">
        <div>Guest of {place.contact_name}</div>
        <GuestWaiverFlag signed={place.documents_current} />
      </div>
    );
  }
  return (
    <>
      {place.kind === 'child' && (
        <dl className="mt-1 space-y-0.5 text-xs text-slate-700">
          <div>
            <dt className="inline font-semibold">Child of: </dt>
            <dd className="inline">{place.contact_name}</dd>
          </div>
          <div>
            <dt className="inline font-semibold">Collected by: </dt>
            <dd className="inline">{place.collected_by ?? 'The parent'}</dd>
          </div>
          <div>
            <dt className="inline font-semibold">Medical notes: </dt>
            <dd className="inline">{place.medical_notes ?? 'None'}</dd>
          </div>
        </dl>
      )}
      {!place.documents_current && <div className="mt-1 text-xs font-semibold text-red-700">Has not signed the current documents</div>}
    </>
  );
}
