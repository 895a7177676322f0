import { useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { formatPounds } from '@/config/plans';
import { queryKeys } from '@/lib/query-keys';
import { toast } from '@/lib/toast';
import { DOCUMENTS_REQUIRED, promotedMessage, WAITLIST_MESSAGES, waitlistErrorMessage } from '../lib/booking-messages';
import { isBooked } from '../lib/class-facts';
import { BookingRefused } from './book-class';
import { scheduleClassQueryOptions, type ScheduleClass, type Viewer } from './get-class-schedule';
import { getMyBalanceTotal } from './get-my-balance';
import { useJoinWaitlist } from './join-waitlist';
import { useLeaveWaitlist } from './leave-waitlist';
import { useDocumentsGate } from './use-documents-gate';

const refusal = (error: unknown) => (error instanceof BookingRefused ? error.error : { code: '', hint: '', message: '' });

/**
 * Join and Leave on a schedule's full classes, one request at a time (a double tap sends one);
 * the card's place and line come from the refreshed facts. Leave that finds the place gone reads
 * the class's facts again: promoted (now booked) or removed, and says which.
 */
export function useWaitlistActions(viewer: Viewer) {
  const queryClient = useQueryClient();
  const toDocuments = useDocumentsGate();
  const join = useJoinWaitlist();
  const leave = useLeaveWaitlist();
  const inFlight = useRef(false);

  /** The member's balance, formatted, or null without one (or when it cannot be read: the words then leave it out). */
  async function balanceNow(): Promise<string | null> {
    const total = await queryClient
      .fetchQuery({ queryKey: queryKeys.giftVouchers.balanceTotal(), queryFn: getMyBalanceTotal })
      .catch(() => 0);
    return total > 0 ? formatPounds(total) : null;
  }

  async function once(action: () => Promise<void>) {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      await action();
    } finally {
      inFlight.current = false;
    }
  }

  const onJoin = (cls: ScheduleClass) =>
    once(async () => {
      // A member who would pay per class is told the price first: it is charged on promotion, to
      // their balance first (decision 0108), then the saved card.
      const balance = cls.needs_payment && cls.price_payg ? await balanceNow() : null;
      if (cls.needs_payment && cls.price_payg && !window.confirm(WAITLIST_MESSAGES.confirmPaidJoin(formatPounds(cls.price_payg), balance)))
        return;
      try {
        const place = await join.mutateAsync(cls.id);
        toast.success(
          place.price
            ? WAITLIST_MESSAGES.joinedPaid(place.position, formatPounds(Number(place.price)), balance)
            : WAITLIST_MESSAGES.joined(place.position),
        );
      } catch (error) {
        const e = refusal(error);
        // Not an error: /agreements says why, and brings the member back here once signed (decision 0021).
        if (e.hint === DOCUMENTS_REQUIRED) toDocuments(e.message);
        else toast.error(waitlistErrorMessage(e, WAITLIST_MESSAGES.joinFailed));
      }
    });

  const onLeave = (cls: ScheduleClass) =>
    once(async () => {
      if (!window.confirm(WAITLIST_MESSAGES.confirmLeave)) return;
      try {
        await leave.mutateAsync(cls.id);
        toast.success(WAITLIST_MESSAGES.left);
      } catch (error) {
        const e = refusal(error);
        if (e.hint !== 'not_on_waitlist') {
          toast.error(waitlistErrorMessage(e, WAITLIST_MESSAGES.leaveFailed));
          return;
        }
        // Not on it any more (promoted, removed, or left in another tab): which one?
        const fresh = await queryClient.fetchQuery({ ...scheduleClassQueryOptions(cls.id, viewer), staleTime: 0 }).catch(() => null);
        if (fresh && isBooked(fresh)) toast.success(promotedMessage(cls.name));
        else toast.error(e.message);
      }
    });

  // Stable across renders (they call this render's handlers), so the cards given them can skip re-rendering.
  const latest = useRef({ onJoin, onLeave });
  useLayoutEffect(() => {
    latest.current = { onJoin, onLeave };
  });
  const stable = useMemo(
    () => ({ onJoin: (cls: ScheduleClass) => latest.current.onJoin(cls), onLeave: (cls: ScheduleClass) => latest.current.onLeave(cls) }),
    [],
  );
  const pendingClassId = (join.isPending ? join.variables : leave.isPending ? leave.variables : null) ?? null;
  const busy = join.isPending || leave.isPending;
  return useMemo(() => ({ ...stable, pendingClassId, busy }), [stable, pendingClassId, busy]);
}

export type WaitlistActions = ReturnType<typeof useWaitlistActions>;
