import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from '@/lib/toast';
import { claimReferral, offerErrorText } from '../api/offers';
import { forgetReferral, rememberReferral, storedReferral } from '../lib/referral-link';

/**
 * A friend's referral link (decision 0084): keeps `?ref=CODE` from any page until the person is
 * signed in (through a sign-up and its email link if need be), then claims it once, whichever page
 * they are on. The root layout mounts it for members, and for visitors only on a link with `ref=`,
 * so a visitor's page does not carry it. A refusal is final (their own link, referred already, paid
 * before) and forgets the code; a network failure keeps it for the next visit.
 */
export function ReferralClaim({ search, signedIn }: { search: string; signedIn: boolean }) {
  // Keeping it is idempotent, so it is done as the location is read.
  const arrived = useMemo(() => rememberReferral(search), [search]);
  const [settled, setSettled] = useState<string | null>(null);
  const kept = arrived ?? storedReferral();
  const code = kept !== settled ? kept : null;
  const tried = useRef<string | null>(null);
  useEffect(() => {
    if (!signedIn || !code || tried.current === code) return;
    tried.current = code;
    claimReferral(code).then(
      () => {
        forgetReferral();
        setSettled(code);
        toast.success('Welcome! You joined through a friend: you both get a reward when your first payment goes through.');
      },
      (error: unknown) => {
        if ((error as { hint?: string } | null)?.hint) forgetReferral();
        setSettled(code);
        toast.error(offerErrorText(error, 'Could not record your referral. Please reload the page.'));
      },
    );
  }, [signedIn, code]);
  return null;
}
