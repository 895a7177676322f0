import { z } from 'zod';
import { DOCUMENT_MESSAGES } from './document-words';

/**
 * The sign form's rules: every document shown is accepted (ticked), every PAR-Q question
 * answered, the health consent given (explicit and separate: UK GDPR special-category data),
 * and the full name typed. The database checks the same again (sign_documents).
 */
export function signFormSchema(acceptKinds: readonly string[], questionCount: number) {
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
      if (questionCount > 0 && !values.consent)
        ctx.addIssue({ code: 'custom', path: ['consent'], message: DOCUMENT_MESSAGES.consentRequired });
    });
}
export type SignFormValues = z.infer<ReturnType<typeof signFormSchema>>;
