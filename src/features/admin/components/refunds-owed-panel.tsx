import { BadgeCheck, CheckCircle2, Undo2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { formatPounds } from '@/config/plans';
import {
  RefundFailedError,
  useMarkRefundRefunded,
  useRefundsOwed,
  useRefundThroughProvider,
  type RefundOwed,
  type RefundProvider,
} from '../api/get-refunds-owed';
import { confirmThenMutate } from '../lib/confirm-then-mutate';
import { providerRefundWords, REFUND_MESSAGES, REFUND_REASON_LABELS } from '../lib/refund-words';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { EmptyState } from './empty-state';
import { ActionsCell, CardRow, CardTable, FactCell, TitleCell } from './card-table';
import { PanelSection } from './panel-section';

const WHEN = DATE_FORMATS.dateTime;
const REFUND_COLUMNS = ['Member', 'For', 'Amount', 'Why', 'When', 'Actions'] as const;

/** The database's own refusal (refund under way, no longer owed) is worded for the admin; anything else is generic. */
const serverMessage = (fallback: string) => (error: Error) =>
  'hint' in error && typeof error.hint === 'string' && error.hint.startsWith('refund_') ? error.message : fallback;

/**
 * Bookings Management's "Refunds owed" (decision 0010): paid bookings the studio removed, with who,
 * what, how much, why and when. Each is marked refunded by hand, or refunded through SumUp, which
 * marks it only once SumUp confirms (netlify/functions/refund-payment.ts).
 */
export function RefundsOwedPanel() {
  const refunds = useRefundsOwed();
  const mark = useMarkRefundRefunded();
  const refund = useRefundThroughProvider();
  const busy = mark.isPending || refund.isPending;

  function markRefunded(r: RefundOwed) {
    confirmThenMutate(
      `Mark ${formatPounds(r.amount)} to ${who(r)} as refunded? Only do this once the money is back with them.`,
      mark,
      r.id,
      {
        success: REFUND_MESSAGES.marked,
        failure: serverMessage(REFUND_MESSAGES.markFailed),
      },
    );
  }

  function refundViaProvider(r: RefundOwed, provider: RefundProvider) {
    const words = providerRefundWords(provider);
    confirmThenMutate(`Refund ${formatPounds(r.amount)} to ${who(r)} through ${provider}?`, refund, r.id, {
      success: words.refunded,
      // The function's message says what the provider answered, or what to do when it did not.
      failure: (error) => (error instanceof RefundFailedError ? error.message : words.refundFailed),
    });
  }

  return (
    <PanelSection
      id="refunds-owed-heading"
      title="Refunds owed"
      intro="Paid bookings the studio removed: an admin's cancel, a deleted class, a regenerated timetable or a deleted member."
    >
      {refunds.isPending && <Spinner label="Loading refunds owed" />}
      {refunds.isError && <EmptyState title={REFUND_MESSAGES.loadFailed} body="Refresh the page to try again." />}
      {refunds.data?.length === 0 && (
        <EmptyState
          title="No refunds owed"
          body="When the studio removes a paid booking, the payment to give back appears here."
          icon={<BadgeCheck aria-hidden="true" className="h-10 w-10" />}
        />
      )}
      {refunds.data && refunds.data.length > 0 && (
        <CardTable columns={REFUND_COLUMNS} from="xl">
          {refunds.data.map((r) => (
            <CardRow key={r.id}>
              <TitleCell>
                <div className="font-semibold text-slate-900">{r.memberName || '—'}</div>
                <div className="break-all text-xs text-slate-500">{r.memberEmail}</div>
              </TitleCell>
              <FactCell label="For" wide>
                <div className="text-slate-900">{r.description}</div>
                {r.classStartTime && <div className="text-xs text-slate-500">Class {formatInLondon(r.classStartTime, WHEN)}</div>}
              </FactCell>
              <FactCell label="Amount" nowrap className="font-semibold text-slate-900">
                {formatPounds(r.amount)}
              </FactCell>
              <FactCell label="Why">{REFUND_REASON_LABELS[r.reason]}</FactCell>
              <FactCell label="When" nowrap>
                {formatInLondon(r.createdAt, WHEN)}
              </FactCell>
              <ActionsCell note={<RefundNote refund={r} />}>
                <Button
                  size="sm"
                  variant="outline"
                  loading={mark.isPending && mark.variables === r.id}
                  disabled={busy}
                  aria-label={`Mark ${formatPounds(r.amount)} to ${who(r)} as refunded`}
                  onClick={() => markRefunded(r)}
                >
                  <CheckCircle2 aria-hidden="true" className="h-4 w-4" />
                  Mark refunded
                </Button>
                {r.provider && r.providerRefundState === null && (
                  <Button
                    size="sm"
                    loading={refund.isPending && refund.variables === r.id}
                    disabled={busy}
                    aria-label={`Refund ${formatPounds(r.amount)} to ${who(r)} via ${r.provider}`}
                    onClick={() => refundViaProvider(r, r.provider!)}
                  >
                    <Undo2 aria-hidden="true" className="h-4 w-4" />
                    Refund via {r.provider}
                  </Button>
                )}
              </ActionsCell>
            </CardRow>
          ))}
        </CardTable>
      )}
    </PanelSection>
  );
}

function who(r: RefundOwed): string {
  return r.memberName || r.memberEmail;
}

/** Why "Refund via SumUp" (or GoCardless) is not offered, or what the provider said last time. */
function RefundNote({ refund: r }: { refund: RefundOwed }) {
  const words = r.provider ? providerRefundWords(r.provider) : null;
  const note = !words
    ? REFUND_MESSAGES.notThroughProvider
    : r.providerRefundState === 'in_progress'
      ? words.inProgress
      : r.providerRefundState === 'unconfirmed'
        ? words.unconfirmed
        : r.providerRefundError
          ? `${words.lastFailed}: ${r.providerRefundError}`
          : null;
  return note ? <p className="mt-1 max-w-xs text-xs text-slate-600">{note}</p> : null;
}
