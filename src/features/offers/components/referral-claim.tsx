import { useEffect, useRef } from 'react';
import { toast } from '@/lib/toast';
import { claimReferral, offerErrorText } from '../api/offers';
import { forgetReferral } from '../lib/referral-link';

/**
 * Claims the referral link this browser arrived by (decision 0084), once the person is signed in,
 * whichever page they are on: the root layout mounts it while a code is kept. A refusal is final
 * (their own link, referred already, paid before) and forgets the code; a network failure keeps
 * it for the next visit.
 */
export function ReferralClaim({ code, onDone }: { code: string; onDone: (code: string) => void }) {
  const tried = useRef(false);
  useEffect(() => {
    if (tried.current) return;
    tried.current = true;
    claimReferral(code).then(
      () => {
        forgetReferral();
        onDone(code);
        toast.success('Welcome! You joined through a friend: you both get a reward when your first payment goes through.');
      },
      (error: unknown) => {
        if ((error as { hint?: string } | null)?.hint) forgetReferral();
        onDone(code);
        toast.error(offerErrorText(error, 'Could not record your referral. Please reload the page.'));
      },
    );
  }, [code, onDone]);
  return null;
}
