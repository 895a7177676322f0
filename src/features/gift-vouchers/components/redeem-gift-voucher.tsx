import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { toast } from '@/lib/toast';
import { useRedeemGiftVoucher } from '../api/gift-vouchers';
import { VOUCHER_MESSAGES, voucherErrorText } from '../lib/messages';

const schema = z.object({
  code: z
    .string()
    .transform((c) => c.replace(/[\s-]/g, '').toUpperCase())
    .refine((c) => c.length === 16, 'A code is 16 letters and digits, like ABCD-EFGH-JKLM-NPQR'),
});
type RedeemForm = z.input<typeof schema>;

/** A signed-in member types (or follows the email's link with) a code: it goes into their balance. */
export function RedeemGiftVoucher({ initialCode = '' }: { initialCode?: string }) {
  const redeem = useRedeemGiftVoucher();
  const { register, handleSubmit, formState, setError, reset } = useForm<RedeemForm, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { code: initialCode },
  });

  const submit = handleSubmit(async ({ code }) => {
    try {
      const result = await redeem.mutateAsync(code);
      if (result.outcome === 'redeemed') {
        toast.success(result.message);
        reset({ code: '' });
      } else {
        setError('code', { message: result.message });
      }
    } catch (error) {
      toast.error(voucherErrorText(error, VOUCHER_MESSAGES.redeemFailed));
    }
  });

  return (
    <Card className="p-4 sm:p-6">
      <form noValidate aria-label="Redeem a gift voucher" onSubmit={(ev) => void submit(ev)} className="space-y-4">
        <TextField
          label="Gift voucher code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          hint="16 letters and digits, from the email"
          {...register('code')}
          error={formState.errors.code?.message}
        />
        <Button type="submit" loading={formState.isSubmitting}>
          Redeem
        </Button>
      </form>
    </Card>
  );
}
