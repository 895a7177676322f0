import type { CompositeRow } from './composite-row';

/** The fields of a cover request (decision 0087) the database always fills. */
export type CoverRequestFilled =
  | 'id'
  | 'class_id'
  | 'class_name'
  | 'start_time'
  | 'duration'
  | 'requested_by'
  | 'requested_by_name'
  | 'status'
  | 'created_at'
  | 'mine'
  | 'covering';

/** A cover request under way, as the coach (/coach) or the admin (Settings) reads it. */
export type CoverRequest = CompositeRow<'cover_request', CoverRequestFilled>;

const OWN_WORDS = new Set([
  'not_your_class',
  'class_started',
  'cover_already_requested',
  'invalid_note',
  'cover_request_not_found',
  'cannot_cover_own_class',
  'cover_already_taken',
  'cover_not_accepted',
  'cover_request_closed',
  'cover_clash',
  'same_coach',
]);

/** The database's refusals of cover in its own words (each is written for the person asking). */
export function coverError(error: unknown): string {
  const { hint, message } = error as { hint?: string; message?: string };
  return hint && OWN_WORDS.has(hint) && message ? message : 'Could not save that. Please try again.';
}
