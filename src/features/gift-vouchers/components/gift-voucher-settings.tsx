import { z } from 'zod';
import { SettingsForm } from '@/components/settings/settings-form';
import { TextField } from '@/components/ui/field';
import { useGiftVoucherOptions, useSaveGiftVoucherSettings } from '../api/gift-vouchers';
import { VOUCHER_MESSAGES, voucherErrorText } from '../lib/messages';

const whole = (min: number, max: number, what: string) =>
  z
    .string()
    .regex(/^\d+$/, `${what}: a whole number`)
    .refine((v) => Number(v) >= min && Number(v) <= max, `${what}: ${min} to ${max}`)
    .transform(Number);

const schema = z
  .object({
    minAmount: whole(1, 1000, 'Smallest amount'),
    maxAmount: whole(1, 5000, 'Largest amount'),
    expiryMonths: whole(1, 120, 'Months'),
  })
  .refine((v) => v.minAmount <= v.maxAmount, { path: ['maxAmount'], message: 'Not below the smallest amount' });

/**
 * Admins: the gift voucher rules (the smallest and largest amount, whole pounds, and how many
 * months a voucher lasts), in the one settings form (decision 0107).
 */
export function GiftVoucherSettings() {
  const options = useGiftVoucherOptions();
  const save = useSaveGiftVoucherSettings();
  const saved = options.data;
  return (
    <SettingsForm
      label="Gift voucher settings"
      schema={schema}
      values={
        saved
          ? { minAmount: String(saved.minAmount), maxAmount: String(saved.maxAmount), expiryMonths: String(saved.expiryMonths) }
          : undefined
      }
      save={(values) => save.mutateAsync(values)}
      submitLabel="Save gift voucher settings"
      savedText={VOUCHER_MESSAGES.settingsSaved}
      errorText={(error) => voucherErrorText(error, VOUCHER_MESSAGES.settingsFailed)}
      className="p-4"
    >
      {({ field }) => (
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label="Smallest amount (£)" inputMode="numeric" {...field('minAmount')} />
          <TextField label="Largest amount (£)" inputMode="numeric" {...field('maxAmount')} />
          <TextField
            label="Months a voucher lasts"
            inputMode="numeric"
            hint="From purchase; stated to buyers and on the voucher"
            {...field('expiryMonths')}
          />
        </div>
      )}
    </SettingsForm>
  );
}
