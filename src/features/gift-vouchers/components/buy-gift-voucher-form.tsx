import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, TextAreaField, TextField } from '@/components/ui/field';
import { controlClasses } from '@/components/ui/field-styles';
import { Spinner } from '@/components/ui/spinner';
import { formatPounds } from '@/config/plans';
import { useAuth } from '@/lib/auth/auth-context';
import { toast } from '@/lib/toast';
import { useBuyGiftVoucher, useGiftVoucherOptions, type GiftVoucherOptions } from '../api/gift-vouchers';
import { VOUCHER_MESSAGES, voucherErrorText } from '../lib/messages';
import { giftVoucherSchema, latestDeliveryDate, londonDate, MESSAGE_MAX, type GiftVoucherForm } from '../lib/voucher-form';

/**
 * Buy a gift voucher (anyone: a visitor or a member). The amount or package, the recipient, a
 * message and the delivery date; the expiry is stated before paying (UK: it must be clear at sale).
 */
export function BuyGiftVoucher() {
  const options = useGiftVoucherOptions();
  if (options.isError) {
    return (
      <p role="alert" className="text-red-700">
        {VOUCHER_MESSAGES.loadFailed}
      </p>
    );
  }
  if (!options.data) return <Spinner label="Loading gift vouchers" />;
  return <BuyForm options={options.data} />;
}

function BuyForm({ options }: { options: GiftVoucherOptions }) {
  const { user } = useAuth();
  const visitor = !user;
  const today = londonDate(new Date());
  const schema = useMemo(() => giftVoucherSchema(options, today, visitor), [options, today, visitor]);
  const buy = useBuyGiftVoucher();
  const { register, handleSubmit, control, formState } = useForm<GiftVoucherForm>({
    resolver: zodResolver(schema),
    defaultValues: {
      choice: 'amount',
      amount: '',
      recipientName: '',
      recipientEmail: '',
      message: '',
      deliverOn: today,
      buyerName: '',
      buyerEmail: '',
    },
  });
  const choice = useWatch({ control, name: 'choice' });
  const message = useWatch({ control, name: 'message' }) ?? '';
  const errors = formState.errors;

  const submit = handleSubmit(async (v) => {
    try {
      await buy.mutateAsync({
        ...(v.choice === 'amount' ? { amount: Number(v.amount) } : { planSlug: v.choice }),
        recipientName: v.recipientName.trim(),
        recipientEmail: v.recipientEmail.trim(),
        message: v.message.trim(),
        deliverOn: v.deliverOn,
        ...(visitor ? { buyerName: v.buyerName.trim(), buyerEmail: v.buyerEmail.trim() } : {}),
      });
    } catch (error) {
      toast.error(voucherErrorText(error, VOUCHER_MESSAGES.buyFailed));
    }
  });

  return (
    <Card className="p-4 sm:p-6">
      <form noValidate aria-label="Buy a gift voucher" onSubmit={(ev) => void submit(ev)} className="space-y-4">
        <Field label="Gift" error={errors.choice?.message}>
          {(control) => (
            <select {...control} {...register('choice')} className={controlClasses(Boolean(errors.choice))}>
              <option value="amount">An amount</option>
              {options.packages.map((p) => (
                <option key={p.slug} value={p.slug}>
                  {p.name} ({formatPounds(p.price)})
                </option>
              ))}
            </select>
          )}
        </Field>
        {choice === 'amount' && (
          <TextField
            label="Amount in pounds"
            inputMode="numeric"
            hint={`Whole pounds, £${options.minAmount} to £${options.maxAmount}`}
            {...register('amount')}
            error={errors.amount?.message}
          />
        )}
        <TextField label="Recipient's name" autoComplete="off" {...register('recipientName')} error={errors.recipientName?.message} />
        <TextField
          label="Recipient's email"
          type="email"
          autoComplete="off"
          hint="We email the code here on the delivery date"
          {...register('recipientEmail')}
          error={errors.recipientEmail?.message}
        />
        <TextAreaField
          label="Message"
          optional
          maxLength={MESSAGE_MAX}
          hint={`${message.length} of ${MESSAGE_MAX} characters`}
          {...register('message')}
          error={errors.message?.message}
        />
        <TextField
          label="Delivery date"
          type="date"
          min={today}
          max={latestDeliveryDate(today)}
          {...register('deliverOn')}
          error={errors.deliverOn?.message}
        />
        {visitor && (
          <>
            <TextField label="Your name" autoComplete="name" {...register('buyerName')} error={errors.buyerName?.message} />
            <TextField
              label="Your email"
              type="email"
              autoComplete="email"
              hint="For your receipt"
              {...register('buyerEmail')}
              error={errors.buyerEmail?.message}
            />
          </>
        )}
        <p className="text-sm text-slate-700">
          The voucher can be redeemed for {options.expiryMonths} months from today: it expires after that. The recipient adds it to their
          balance at the studio, which pays for classes, packages and memberships, in part or in full.
        </p>
        <Button type="submit" loading={formState.isSubmitting || buy.isPending || buy.isSuccess}>
          Pay by card
        </Button>
      </form>
    </Card>
  );
}
