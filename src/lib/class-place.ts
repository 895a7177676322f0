import { compositeRows, type CompositeRow } from './composite-row';
import type { Database } from './database.types';

/** The fields class_places always sets (24_places.sql); the others are null where they do not apply. */
type Filled =
  | 'place_id'
  | 'kind'
  | 'class_id'
  | 'booking_id'
  | 'member_id'
  | 'name'
  | 'health_flag'
  | 'health_yes'
  | 'documents_current'
  | 'pending'
  | 'booked_at';

/**
 * One place in a class (decision 0035): a member's own booking, a child's or a guest's, with the
 * person in it and their own documents and health answers. The admin roster, register and check-in
 * sheet and the coach's roster all read this one shape.
 */
export type ClassPlace = CompositeRow<'class_place', Filled>;

export type PlaceKind = Database['public']['Enums']['place_kind'];

/** An RPC's rows of public.class_place. */
export const classPlaceRows = (rows: Database['public']['CompositeTypes']['class_place'][]): ClassPlace[] =>
  compositeRows<'class_place', Filled>(rows);

/** What kind of place it is, as a list or a file says it. */
export const PLACE_KIND_WORDS: Record<PlaceKind, string> = { member: 'Member', child: 'Child', guest: 'Guest' };

/** How a place is called on a button at the door: a child with their parent, a guest with their host. */
export function placeLabel(place: Pick<ClassPlace, 'kind' | 'name' | 'contact_name'>): string {
  if (place.kind === 'child') return `${place.name} (child of ${place.contact_name})`;
  if (place.kind === 'guest') return `${place.name} (guest of ${place.contact_name})`;
  return place.name;
}
