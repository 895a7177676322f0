import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { formatPounds } from '@/config/plans';
import { formatLondonDate } from '@/lib/studio-calendar';
import { toast } from '@/lib/toast';
import { useCardStatus } from '../api/card-status';
import { invalidateMembership } from '../api/invalidate-membership';
import { startCardUpdate } from '../api/update-card';
import type { MyMembership } from '../lib/membership-view';

/**
 * "Add a card" / "Replace card" of an active plan (decision 0104): a card-saving checkout that
 * charges nothing now (the provider only checks the card); the saved card pays the next renewal.
 */
export function SaveCardButton({
  label,
  variant = 'primary',
}: {
  label: 'Add a card' | 'Replace card';
  variant?: 'primary' | 'secondary';
}) {
  const [busy, setBusy] = useState(false);
  async function start() {
    setBusy(true);
    const failed = await startCardUpdate();
    if (failed) {
      toast.error(failed);
      setBusy(false);
    }
  }
  return (
    <Button variant={variant} loading={busy} onClick={() => void start()}>
      {label}
    </Button>
  );
}

/**
 * An active plan with no card saved (an imported plan, decision 0095): the member adds one now, and
 * it is charged on the renewal date, not before.
 */
export function AddCardNotice({ membership: m }: { membership: MyMembership }) {
  return (
    <div role="status" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-950">
      <p>
        No card is saved for this membership yet. Add one now: nothing is charged today, and the next payment of{' '}
        {formatPounds(m.price ?? 0)} is taken with it on {formatLondonDate(m.period_end)}.
      </p>
      <div className="mt-3">
        <SaveCardButton label="Add a card" />
      </div>
    </div>
  );
}

/**
 * Back from a card-saving checkout with nothing due (`?card=<reference>`): says whether the card
 * was saved, once the studio knows, and refreshes the membership (its "no card" notice goes).
 */
export function CardSavedNotice() {
  const [params] = useSearchParams();
  const reference = params.get('card');
  const status = useCardStatus(reference);
  const queryClient = useQueryClient();
  const told = useRef<string | null>(null);
  const result = status.isError ? 'failed' : status.data;
  useEffect(() => {
    if (!result || result === 'pending' || told.current === result) return;
    told.current = result;
    if (result === 'saved') {
      toast.success('Your card is saved. Nothing was charged.');
      void invalidateMembership(queryClient);
    } else {
      toast.error('Your card was not saved.');
    }
  }, [result, queryClient]);
  if (!reference) return null;
  if (result === 'saved') {
    return (
      <p role="status" className="rounded-lg bg-green-50 p-3 text-sm text-green-900">
        Your card is saved. Nothing was charged: it pays your next renewal.
      </p>
    );
  }
  if (result === 'failed') {
    return (
      <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
        Your card was not saved and nothing was charged. You can try again.
      </p>
    );
  }
  return (
    <p role="status" className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
      Checking your card…
    </p>
  );
}
