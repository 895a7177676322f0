import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { formatPounds } from '@/config/plans';
import { toast } from '@/lib/toast';
import { useAdminGiftVouchers, useExtendGiftVoucher, type AdminGiftVoucher } from '../api/gift-vouchers';
import { formatLondonDate } from '../lib/dates';
import { VOUCHER_MESSAGES, voucherErrorText } from '../lib/messages';
import { londonDate } from '../lib/voucher-form';

const STATUS: Record<AdminGiftVoucher['status'], { label: string; tone: BadgeTone }> = {
  sold: { label: 'Sold', tone: 'info' },
  delivered: { label: 'Delivered', tone: 'brand' },
  redeemed: { label: 'Redeemed', tone: 'success' },
  expired: { label: 'Expired', tone: 'danger' },
};

/** Admins: every gift voucher sold, searched by code or email, with its state; an unredeemed one's expiry can be extended. */
export function GiftVouchersAdmin() {
  const [search, setSearch] = useState('');
  const vouchers = useAdminGiftVouchers(search);
  const [extending, setExtending] = useState<AdminGiftVoucher | null>(null);

  return (
    <section aria-labelledby="gift-vouchers-heading" className="space-y-4">
      <h2 id="gift-vouchers-heading" className="text-xl font-bold text-slate-900">
        Gift vouchers
      </h2>
      <div className="max-w-md">
        <TextField
          label="Search gift vouchers"
          type="search"
          placeholder="Code or email"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {vouchers.isError && (
        <p role="alert" className="text-red-700">
          Could not load the gift vouchers. Please try again.
        </p>
      )}
      {!vouchers.data && !vouchers.isError && <Spinner label="Loading gift vouchers" />}
      {vouchers.data?.length === 0 && <p className="text-slate-600">No gift vouchers{search ? ' match the search' : ' sold yet'}.</p>}
      {vouchers.data && vouchers.data.length > 0 && (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label="Gift vouchers">
          {vouchers.data.map((v) => (
            <li key={v.id} className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-mono font-semibold text-slate-900">{v.code}</span>
                <Badge tone={STATUS[v.status].tone}>{STATUS[v.status].label}</Badge>
              </div>
              <p className="mt-1">
                {formatPounds(v.amount)}
                {v.packageName ? ` (${v.packageName})` : ''} from {v.buyerName} ({v.buyerEmail}) for {v.recipientName} ({v.recipientEmail})
              </p>
              <p className="mt-1">
                Bought {formatLondonDate(v.createdAt)}, delivery {formatLondonDate(v.deliverOn)}
                {v.redeemedAt
                  ? `, redeemed ${formatLondonDate(v.redeemedAt)}${v.redeemedByName ? ` by ${v.redeemedByName}` : ''}`
                  : `, expires ${formatLondonDate(v.expiresAt)}`}
              </p>
              {!v.redeemedAt && (
                <Button variant="secondary" size="sm" className="mt-2" onClick={() => setExtending(v)}>
                  Extend expiry
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {extending && <ExtendDialog voucher={extending} onClose={() => setExtending(null)} />}
    </section>
  );
}

function ExtendDialog({ voucher, onClose }: { voucher: AdminGiftVoucher; onClose: () => void }) {
  const extend = useExtendGiftVoucher();
  const current = londonDate(new Date(voucher.expiresAt));
  const today = londonDate(new Date());
  const schema = z.object({
    expiresOn: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the new expiry date')
      .refine((d) => d > current && d > today, `Choose a date after ${formatLondonDate(voucher.expiresAt)} and after today`),
  });
  const { register, handleSubmit, formState } = useForm<z.input<typeof schema>>({ resolver: zodResolver(schema) });
  const submit = handleSubmit(async ({ expiresOn }) => {
    try {
      // The end of that day in London (22:59:59 UTC is 23:59:59 in winter; in summer it is an hour short).
      await extend.mutateAsync({ id: voucher.id, expiresAt: `${expiresOn}T22:59:59Z` });
      toast.success(`Gift voucher ${voucher.code} now expires on ${formatLondonDate(expiresOn)}`);
      onClose();
    } catch (error) {
      toast.error(voucherErrorText(error, VOUCHER_MESSAGES.extendFailed));
    }
  });
  return (
    <Modal open onClose={onClose} title={`Extend gift voucher ${voucher.code}`}>
      <form noValidate onSubmit={(ev) => void submit(ev)} className="space-y-4">
        <TextField label="New expiry date" type="date" min={today} {...register('expiresOn')} error={formState.errors.expiresOn?.message} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={formState.isSubmitting}>
            Extend
          </Button>
        </div>
      </form>
    </Modal>
  );
}
