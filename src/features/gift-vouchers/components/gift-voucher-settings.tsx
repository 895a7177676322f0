import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { toast } from '@/lib/toast';
import { useGiftVoucherOptions, useSaveGiftVoucherSettings } from '../api/gift-vouchers';
import { VOUCHER_MESSAGES, voucherErrorText } from '../lib/messages';

const whole = (min: number, max: number, what: string) =>
  z
    .string()
    .regex(/^\d+$/, `${what}: a whole number`)
    .refine((v) => Number(v) >= min && Number(v) <= max, `${what}: ${min} to ${max}`);

const schema = z
  .object({
    minAmount: whole(1, 1000, 'Smallest amount'),
    maxAmount: whole(1, 5000, 'Largest amount'),
    expiryMonths: whole(1, 120, 'Months'),
  })
  .refine((v) => Number(v.minAmount) <= Number(v.maxAmount), { path: ['maxAmount'], message: 'Not below the smallest amount' });
type SettingsForm = z.input<typeof schema>;

/**
 * Admins: the gift voucher rules (the smallest and largest amount, whole pounds, and how many
 * months a voucher lasts). Its own component so the Settings page can place it.
 */
export function GiftVoucherSettings() {
  const options = useGiftVoucherOptions();
  const save = useSaveGiftVoucherSettings();
  const { register, handleSubmit, formState, reset } = useForm<SettingsForm>({ resolver: zodResolver(schema) });
  useEffect(() => {
    if (options.data) {
      reset({
        minAmount: String(options.data.minAmount),
        maxAmount: String(options.data.maxAmount),
        expiryMonths: String(options.data.expiryMonths),
      });
    }
  }, [options.data, reset]);

  const submit = handleSubmit(async (v) => {
    try {
      await save.mutateAsync({ minAmount: Number(v.minAmount), maxAmount: Number(v.maxAmount), expiryMonths: Number(v.expiryMonths) });
      toast.success(VOUCHER_MESSAGES.settingsSaved);
    } catch (error) {
      toast.error(voucherErrorText(error, VOUCHER_MESSAGES.settingsFailed));
    }
  });

  return (
    <form noValidate aria-label="Gift voucher settings" onSubmit={(ev) => void submit(ev)} className="grid gap-4 sm:grid-cols-3">
      <TextField label="Smallest amount (£)" inputMode="numeric" {...register('minAmount')} error={formState.errors.minAmount?.message} />
      <TextField label="Largest amount (£)" inputMode="numeric" {...register('maxAmount')} error={formState.errors.maxAmount?.message} />
      <TextField
        label="Months a voucher lasts"
        inputMode="numeric"
        hint="From purchase; stated to buyers and on the voucher"
        {...register('expiryMonths')}
        error={formState.errors.expiryMonths?.message}
      />
      <div className="sm:col-span-3">
        <Button type="submit" loading={formState.isSubmitting} disabled={!options.data}>
          Save gift voucher settings
        </Button>
      </div>
    </form>
  );
}
