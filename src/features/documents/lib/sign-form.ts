import { z } from 'zod';
import { MEMBER_NAME_MAX_LENGTH } from '@/lib/rules/member-name';
import { DOCUMENT_MESSAGES } from './document-words';

/**
 * A typed name as sign_documents compares it with the account's (private.signature_key): lower
 * case, Unicode-normalised, without spaces, punctuation or symbols ("O’Neill-Price." is oneillprice).
 */
export function signatureKey(name: string): string {
  return name
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]/gu, '');
}

/** The account's name a signature must match, or null when the account has none to match. */
export function nameToSignWith(accountName: string | null | undefined): string | null {
  return accountName && signatureKey(accountName) ? accountName.trim() : null;
}

/**
 * The sign form's rules: every document shown is accepted (ticked), every PAR-Q question
 * answered, the health consent given (explicit and separate: UK GDPR special-category data),
 * and the full name typed. The database checks the same again (sign_documents). A member signing
 * for themselves (`accountName` given) signs with the name on their account; an account without
 * one gets the name they sign with, so it must fit the account's name.
 */
export function signFormSchema(
  acceptKinds: readonly string[],
  questionCount: number,
  accountName?: string | null,
  consentRequired: string = DOCUMENT_MESSAGES.consentRequired,
) {
  return z
    .object({
      accepted: z.record(z.string(), z.boolean()),
      answers: z.array(z.string()),
      details: z.string().max(2000),
      consent: z.boolean(),
      signature: z.string().trim().min(2, DOCUMENT_MESSAGES.signatureRequired).max(200),
    })
    .superRefine((values, ctx) => {
      for (const kind of acceptKinds) {
        if (!values.accepted[kind]) ctx.addIssue({ code: 'custom', path: ['accepted', kind], message: DOCUMENT_MESSAGES.acceptRequired });
      }
      for (let i = 0; i < questionCount; i += 1) {
        const answer = values.answers[i];
        if (answer !== 'yes' && answer !== 'no')
          ctx.addIssue({ code: 'custom', path: ['answers', i], message: DOCUMENT_MESSAGES.answerRequired });
      }
      if (questionCount > 0 && !values.consent) ctx.addIssue({ code: 'custom', path: ['consent'], message: consentRequired });
      if (accountName === undefined) return;
      const own = nameToSignWith(accountName);
      if (own && signatureKey(values.signature) !== signatureKey(own))
        ctx.addIssue({ code: 'custom', path: ['signature'], message: DOCUMENT_MESSAGES.signatureMismatch(own) });
      if (!own && values.signature.trim().length > MEMBER_NAME_MAX_LENGTH)
        ctx.addIssue({ code: 'custom', path: ['signature'], message: DOCUMENT_MESSAGES.accountNameTooLong(MEMBER_NAME_MAX_LENGTH) });
    });
}
export type SignFormValues = z.infer<ReturnType<typeof signFormSchema>>;
