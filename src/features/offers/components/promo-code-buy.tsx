import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { formatPounds, type Plan } from '@/config/plans';
import { startPlanCheckout } from '@/lib/payments/start-plan-checkout';
import { getOfferPrice, offerErrorText, type OfferPrice } from '../api/offers';
import { BalanceCovers } from './balance-covers';

const codeSchema = z.object({
  code: z.string().trim().min(3, 'Enter the code, 3 to 30 letters or digits').max(30, 'Enter the code, 3 to 30 letters or digits'),
});
type CodeForm = z.input<typeof codeSchema>;

/**
 * A member's Buy button on a catalogue plan, with "Have a promo code?": the code is priced by the
 * database (my_offer_price, the checkout's own pricing) and the new price shown before paying;
 * Buy then sends the code, and the checkout prices it again (decision 0083).
 */
export function PromoCodeBuy({ plan }: { plan: Plan }) {
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const [applied, setApplied] = useState<{ code: string; price: OfferPrice } | null>(null);
  const { register, handleSubmit, formState, setError, reset } = useForm<CodeForm>({ resolver: zodResolver(codeSchema) });

  async function buy() {
    setBusy(true);
    // On success the browser is leaving for checkout: stay busy so it is not clicked twice.
    if (!(await startPlanCheckout(plan.slug, { promoCode: applied?.code ?? null }))) setBusy(false);
  }

  const apply = handleSubmit(async ({ code }) => {
    try {
      const price = await getOfferPrice(plan.slug, code.trim(), null);
      setApplied({ code: code.trim().toUpperCase(), price });
    } catch (error) {
      setApplied(null);
      setError('code', { message: offerErrorText(error, 'Could not check the code. Please try again.') });
    }
  });

  const formId = `promo-${plan.slug}`;
  return (
    <div className="space-y-2" role="group" aria-label={`Buy ${plan.name}`}>
      <Button variant={plan.highlighted ? 'inverse' : 'primary'} className="w-full" loading={busy} onClick={() => void buy()}>
        {applied ? `Buy ${plan.name} for ${formatPounds(applied.price.price)}` : `Buy ${plan.name}`}
      </Button>
      <BalanceCovers
        planSlug={plan.slug}
        promoCode={applied?.code ?? null}
        inverse={plan.highlighted}
        membership={plan.interval === 'month'}
      />
      {applied ? (
        <p className={`text-sm ${plan.highlighted ? 'text-white' : 'text-slate-700'}`} role="status">
          <span className="line-through">{formatPounds(applied.price.listPrice)}</span> {formatPounds(applied.price.price)}
          {plan.interval === 'month' ? ' for the first month' : ''}: code {applied.code}, {formatPounds(applied.price.discount)} off.{' '}
          <button
            type="button"
            className="underline"
            onClick={() => {
              setApplied(null);
              reset({ code: '' });
            }}
          >
            Remove code
          </button>
        </p>
      ) : open ? (
        <form
          id={formId}
          noValidate
          aria-label={`Promo code for ${plan.name}`}
          onSubmit={(ev) => void apply(ev)}
          className="flex items-end gap-2"
        >
          <TextField
            label="Promo code"
            autoComplete="off"
            autoCapitalize="characters"
            className={`flex-1 ${plan.highlighted ? '[&_label]:text-white' : ''}`}
            {...register('code')}
            error={formState.errors.code?.message}
          />
          <Button type="submit" variant="secondary" loading={formState.isSubmitting}>
            Apply
          </Button>
        </form>
      ) : (
        <button
          type="button"
          className={`text-sm underline ${plan.highlighted ? 'text-white' : 'text-slate-700'}`}
          onClick={() => setOpen(true)}
        >
          Have a promo code?
        </button>
      )}
    </div>
  );
}
