import type { Enums } from '@/lib/database.types';

export type DocumentKind = Enums<'document_kind'>;

/** The kinds the footer and /legal/<kind> show, in the footer's order. */
export const PUBLIC_DOCUMENT_KINDS = [
  'privacy',
  'terms',
  'cookies',
  'waiver',
  'parq',
  'child_parq',
] as const satisfies readonly DocumentKind[];

/** What a member signs before booking (the database's booking_document_kinds). */
export const BOOKING_DOCUMENT_KINDS = ['terms', 'waiver', 'parq'] as const satisfies readonly DocumentKind[];

export function isDocumentKind(value: string | undefined): value is DocumentKind {
  return (PUBLIC_DOCUMENT_KINDS as readonly string[]).includes(value ?? '');
}

export { DOCUMENT_NAMES, isHealthQuestionnaire } from '@/config/documents';

export const DOCUMENT_MESSAGES = {
  signTitle: 'Before you train',
  /** A booking sent the member here (documents_required): its words, and that nothing is lost. */
  whyHereLabel: 'Why you are here',
  bookingWaits: (why: string) =>
    `${why.replace(/[.!]+$/, '')}. You are not booked yet: once you have signed, you go straight back to book.`,
  signIntro:
    'Please read our terms and waiver, answer the health questions and sign with your full name. You only do this once, and again when we change them.',
  allSigned: 'You have signed everything: you can book classes.',
  signed: 'Thank you: you can book classes now.',
  signFailed: 'Could not save your signature. Please try again.',
  loadFailed: 'Could not load the documents. Please try again.',
  notPublished: 'This document has not been published yet.',
  accept: (name: string) => `I have read and accept the ${name}`,
  acceptRequired: 'Please tick to accept',
  answerRequired: 'Please answer yes or no',
  consentLabel:
    'I consent to Finer Fitness keeping my health answers so my coach can train me safely. Only studio admins and the coach of a class I book can see them, and I can withdraw this consent at any time.',
  consentRequired: 'We need your consent to keep your health answers',
  /** The consent when a parent answers the children's questionnaire for their child. */
  childConsentLabel: (child: string) =>
    `I consent to Finer Fitness keeping ${child}'s health answers so the coach can look after them safely. Only studio admins and the coach of a class ${child} is booked on can see them, and I can withdraw this consent at any time.`,
  childConsentRequired: "We need your consent to keep your child's health answers",
  signatureLabel: 'Type your full name to sign',
  signatureRequired: 'Type your full name to sign',
  /** sign_documents' signature_mismatch, word for word. */
  signatureMismatch: (accountName: string) =>
    `Type the name on your account to sign: ${accountName}. If that is not your full name, change it in Edit Profile first.`,
  /** An account without a name gets the one its member signs with (sign_documents' account_name_required otherwise). */
  accountNameMissing: "Your account has no name yet: the name you sign with is saved as your account's name.",
  accountNameTooLong: (max: number) => `Your name is too long (at most ${max} characters)`,
  accountNameFailed: 'Could not save your name. Please try again.',
  detailsLabel: 'Anything your coach should know (for any yes answer)',
  submit: 'Sign and continue',
  submitting: 'Signing...',
  updateAnswers: 'Update my answers',
  saveAnswers: 'Save my answers',
  answersSaved: 'Your health answers are saved',
  withdraw: 'Withdraw my health answers',
  confirmWithdraw:
    'Withdraw your consent and delete your health answers? You will be asked to answer again before your next booking, and a waitlist place will not turn into a booking until you do.',
  withdrawn: 'Your health answers were deleted',
  withdrawFailed: 'Could not withdraw your answers. Please try again.',
  noAnswers: 'You have no health answers on record.',
  downloadJson: 'Download (JSON)',
  downloadReadable: 'Download (readable page)',
  yesFlagNote: 'You answered yes to at least one question: your coach will have a word with you before class.',
  remindTitle: 'Before your first class',
  remindStale: 'We have updated our documents',
  remindBody: 'Read and sign our terms and waiver and answer the health questions, then book.',
  remindLink: 'Read and sign',
  agreementsLink: 'Health & agreements',
} as const;

/** "Version 2, signed 3 Mar 2026". */
export function versionLine(version: number, signedAt: string | null): string {
  if (!signedAt) return `Version ${version}, not signed yet`;
  return `Version ${version}, signed ${new Date(signedAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' })}`;
}

/** A document's text as paragraphs (a blank line starts one). */
export function paragraphs(body: string): string[] {
  return body
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** A PAR-Q version's questions (the database checks they are strings); none on other kinds. */
export function documentQuestions(questions: unknown): string[] {
  return Array.isArray(questions) ? questions.filter((q): q is string => typeof q === 'string') : [];
}

/** The guest's waiver page (/guest/waiver?token=…): a guest signs from their email's link. */
export const GUEST_WAIVER_MESSAGES = {
  title: 'Sign the waiver',
  loading: 'Loading the waiver',
  incompleteLink: 'This link is not complete: open it from your email again.',
  linkGone: 'This link no longer works',
  linkGoneHelp: 'If you think you still have a place, ask the member who invited you.',
  loadFailed: 'Could not load the waiver. Please check your connection and try again.',
  tryAgain: 'Try again',
  intro: (host: string, className: string, when: string) =>
    `${host} has booked you a place on ${className}, ${when}, as their guest. Please read the studio's waiver and sign it with your full name before the class: you cannot take part until you have signed it.`,
  noWaiver: (host: string, className: string, when: string) =>
    `${host} has booked you a place on ${className}, ${when}, as their guest. The studio has no waiver for you to sign: just arrive 10 minutes early.`,
  signatureHint: 'Typing your name here is your signature, dated today.',
  submit: 'Sign the waiver',
  signedTitle: 'You have signed the waiver',
  signed: (className: string, when: string) => `Thank you. See you at ${className}, ${when}. Please arrive 10 minutes early.`,
  signFailed: 'Could not save your signature. Please try again.',
} as const;
