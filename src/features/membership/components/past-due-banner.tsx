import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { formatPounds } from '@/config/plans';
import { formatLondonDate } from '@/lib/studio-calendar';
import { startCardUpdate } from '../api/update-card';
import type { MyMembership } from '../lib/membership-view';

/**
 * "Update card" when a renewal failed, or the invitation to add a card for a plan the studio set
 * up. A module of its own: the dashboard shows it, and it must not bring My Membership's dialogs
 * (their forms' zod and react-hook-form) into the dashboard's first load.
 */
export function PastDueBanner({ membership: m }: { membership: MyMembership }) {
  const [busy, setBusy] = useState(false);
  async function update() {
    setBusy(true);
    const failed = await startCardUpdate();
    if (failed) {
      toast.error(failed);
      setBusy(false);
    }
  }
  // A plan the studio set up for a member who has no saved card has not started: an invitation.
  if (!m.has_card) {
    return (
      <div role="status" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-950">
        <p className="font-semibold">Add a card to start your membership.</p>
        <p className="mt-1">
          The studio has set up this plan for you at {formatPounds(m.amount_due ?? m.price ?? 0)} a month. Add a card and the first month is
          taken then; until then you book as before.
        </p>
        <Button className="mt-3" loading={busy} onClick={() => void update()}>
          Add a card
        </Button>
      </div>
    );
  }
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">Your membership payment failed.</p>
      <p className="mt-1">
        We could not take {formatPounds(m.amount_due ?? m.price ?? 0)}.
        {m.next_retry_at ? ` We will try again on ${formatLondonDate(m.next_retry_at)}.` : ''} You can keep booking meanwhile. Update your
        card to pay now and keep your membership.
      </p>
      <Button className="mt-3" variant="danger" loading={busy} onClick={() => void update()}>
        Update card
      </Button>
    </div>
  );
}
