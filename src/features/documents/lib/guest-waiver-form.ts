import { z } from 'zod';
import { DOCUMENT_MESSAGES } from './document-words';

/** The guest's waiver form: the waiver accepted (ticked) and the full name typed; sign_guest_waiver checks the name again. */
export const guestWaiverSchema = z.object({
  accepted: z.boolean().refine((v) => v, DOCUMENT_MESSAGES.acceptRequired),
  signature: z.string().trim().min(2, DOCUMENT_MESSAGES.signatureRequired).max(200, 'Please keep your name under 200 characters'),
});
export type GuestWaiverValues = z.infer<typeof guestWaiverSchema>;

/** Refusals whose database message the guest reads as it is (sign_guest_waiver's hints). */
export const GUEST_WAIVER_REFUSALS = ['guest_not_found', 'class_started', 'no_waiver', 'signature_required', 'document_not_current'];

/** The database's message for a refusal the guest can act on, or null for anything else. */
export function guestWaiverRefusal(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { hint, message } = error as { hint?: unknown; message?: unknown };
  return typeof hint === 'string' && GUEST_WAIVER_REFUSALS.includes(hint) && typeof message === 'string' ? message : null;
}

/** The link itself is gone (place cancelled, class started, token cut short): nothing to retry. */
export function isGuestLinkGone(error: unknown): boolean {
  const hint = typeof error === 'object' && error !== null ? (error as { hint?: unknown }).hint : undefined;
  return hint === 'guest_not_found' || hint === 'class_started';
}
