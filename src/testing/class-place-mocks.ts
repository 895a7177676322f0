import type { ClassPlace } from '@/lib/class-place';

let next = 0;

/**
 * One place as admin_class_places / coach_class_roster answer it (decision 0035): a member's own
 * booking unless `kind` says otherwise, with no health flags and current documents.
 */
export function makePlace(overrides: Partial<ClassPlace> = {}): ClassPlace {
  next += 1;
  const id = overrides.place_id ?? `place-${next}`;
  return {
    place_id: id,
    kind: 'member',
    class_id: 'class-1',
    booking_id: id,
    guest_place_id: null,
    member_id: `member-${next}`,
    dependant_id: null,
    name: `Person ${next}`,
    contact_name: null,
    email: `person-${next}@example.test`,
    phone: null,
    emergency_contact_name: null,
    emergency_contact_phone: null,
    date_of_birth: null,
    health_flag: false,
    health_yes: [],
    health_details: null,
    medical_notes: null,
    collected_by: null,
    documents_current: true,
    booking_type: 'paid',
    attendance: null,
    pending: false,
    booked_at: '2030-01-01T00:00:00Z',
    ...overrides,
  };
}

/** A guest a member brought: their host's booking, the host as the contact, no health answers. */
export function makeGuestPlace(host: ClassPlace, overrides: Partial<ClassPlace> = {}): ClassPlace {
  return makePlace({
    kind: 'guest',
    booking_id: host.booking_id,
    member_id: host.member_id,
    contact_name: host.name,
    booking_type: null,
    documents_current: false,
    ...overrides,
    guest_place_id: overrides.place_id ?? null,
  });
}
