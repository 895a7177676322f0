/**
 * What a booking screen hands /agreements when the database refused a booking for documents not
 * yet signed (documents_required, decision 0021): the refusal's words, said there calmly rather
 * than as an error toast, since nothing went wrong (router state: the address stays
 * `/agreements?next=…`).
 */
export type AgreementsState = { documentsRequired: string };

export const documentsRequiredState = (message: string): AgreementsState => ({ documentsRequired: message });

/** The refusal's words a booking screen handed over, or null (opened from a link, or reloaded). */
export function documentsRequiredReason(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const reason = (state as Partial<AgreementsState>).documentsRequired;
  return typeof reason === 'string' && reason.trim() ? reason.trim() : null;
}
