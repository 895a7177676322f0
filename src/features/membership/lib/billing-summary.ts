import { formatPounds } from '@/config/plans';
import { formatLondonDate } from '@/lib/studio-calendar';
import type { MyBilling } from '../api/direct-debit';

const COLLECTION_TEXT: Record<string, string> = {
  pending_submission: 'on its way',
  submitted: 'on its way',
  confirmed: 'collected',
  paid_out: 'collected',
  failed: 'failed',
  cancelled: 'cancelled',
  charged_back: 'returned by your bank',
};

/** What the member reads about how they pay: the method, the Direct Debit's state and the newest collection. */
export function billingSummary(billing: MyBilling): string[] {
  const lines = [
    billing.method === 'direct_debit'
      ? billing.mandateStatus === 'active'
        ? 'You pay by Direct Debit.'
        : billing.mandateStatus === 'pending'
          ? 'You pay by Direct Debit (being set up with your bank).'
          : 'You chose Direct Debit, but it is no longer set up: set up a new one or pay by card.'
      : 'You pay by card.',
  ];
  if (billing.collectionStatus && billing.collectionAmount !== null && billing.collectionChargeDate) {
    lines.push(
      `Latest Direct Debit: ${formatPounds(billing.collectionAmount)} for ${formatLondonDate(billing.collectionChargeDate)}, ${
        COLLECTION_TEXT[billing.collectionStatus] ?? billing.collectionStatus
      }.`,
    );
  }
  if (billing.owed) lines.push(`You owe the studio ${formatPounds(billing.owed)} for a payment your bank returned.`);
  return lines;
}
