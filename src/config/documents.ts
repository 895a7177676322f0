import type { Enums } from '@/lib/database.types';

/** The studio's documents, as links, lists and the admin portal name them. */
export const DOCUMENT_NAMES: Record<Enums<'document_kind'>, string> = {
  terms: 'Terms of Membership',
  privacy: 'Privacy Notice',
  cookies: 'Cookie Notice',
  waiver: 'Liability Waiver',
  parq: 'Health questionnaire (PAR-Q)',
  child_parq: "Children's health questionnaire",
};

/** The health questionnaires (yes/no questions): the adult PAR-Q, and the children's a parent answers (decision 0093). */
const HEALTH_QUESTIONNAIRE_KINDS: readonly Enums<'document_kind'>[] = ['parq', 'child_parq'];

export const isHealthQuestionnaire = (kind: Enums<'document_kind'>) => HEALTH_QUESTIONNAIRE_KINDS.includes(kind);
