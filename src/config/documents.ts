import type { Enums } from '@/lib/database.types';

/** The studio's documents, as links, lists and the admin portal name them. */
export const DOCUMENT_NAMES: Record<Enums<'document_kind'>, string> = {
  terms: 'Terms of Membership',
  privacy: 'Privacy Notice',
  cookies: 'Cookie Notice',
  waiver: 'Liability Waiver',
  parq: 'Health questionnaire (PAR-Q)',
};
