import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { formatPounds, PLANS, PLAN_SLUGS } from '@/config/plans';
import { toast } from '@/lib/toast';
import {
  offerErrorText,
  useCreateIntroOffer,
  useCreatePromoCode,
  useEndOffer,
  useOfferReport,
  useReferralSettings,
  useSaveReferralSettings,
  type OfferReportRow,
} from '../api/offers';
import {
  introOfferArgs,
  introOfferSchema,
  promoCodeArgs,
  promoCodeSchema,
  referralSettingsSchema,
  type IntroOfferForm,
  type PromoCodeForm,
} from '../lib/offer-forms';
import { SettingsForm } from '@/components/settings/settings-form';

/**
 * Admin > Settings: promo codes, intro offers and the referral reward (decisions 0083, 0084), and
 * what each has been used for: kept uses and the money they took off.
 */
export function OffersAdmin() {
  return (
    <>
      <OffersReport />
      <PromoCodeCreate />
      <IntroOfferCreate />
      <ReferralRewardSettings />
    </>
  );
}

/** A titled block on the settings page, as the admin area's others look. */
function PanelSection({ id, title, intro, children }: { id: string; title: string; intro: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="mb-1 text-xl font-bold text-slate-900">
        {title}
      </h2>
      <p className="mb-4 text-sm text-slate-600">{intro}</p>
      {/* Focusable so a keyboard can scroll a wide table on a phone. */}
      <div
        className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm"
        tabIndex={0}
        role="region"
        aria-label={`${title}, scrolls sideways`}
      >
        {children}
      </div>
    </section>
  );
}

const KIND_LABEL: Record<OfferReportRow['kind'], string> = { promo_code: 'Promo code', intro_offer: 'Intro offer', referrals: 'Referrals' };

function OffersReport() {
  const report = useOfferReport();
  const end = useEndOffer();
  async function endOffer(row: OfferReportRow) {
    try {
      await end.mutateAsync(row);
      toast.success(`${row.name} ended`);
    } catch (error) {
      toast.error(offerErrorText(error, 'Could not end it. Please try again.'));
    }
  }
  return (
    <PanelSection
      id="offers-heading"
      title="Offers"
      intro="Promo codes, intro offers and referrals: uses kept (paid and not refunded) and the money they took off."
    >
      {report.isPending ? (
        <Spinner label="Loading the offers" />
      ) : report.isError ? (
        <p role="alert" className="p-4 text-red-700">
          Could not load the offers.
        </p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Offers and their uses</caption>
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="p-3">
                Offer
              </th>
              <th scope="col" className="p-3">
                Details
              </th>
              <th scope="col" className="p-3">
                Uses
              </th>
              <th scope="col" className="p-3">
                Discounts given
              </th>
              <th scope="col" className="p-3">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {report.data.map((row) => (
              <tr key={`${row.kind}-${row.id ?? 'all'}`} className="border-b border-slate-100 align-top">
                <td className="p-3">
                  <span className="block text-xs text-slate-500">{KIND_LABEL[row.kind]}</span>
                  <span className="font-semibold">{row.name}</span>
                  {row.status === 'ended' && <span className="ml-2 text-xs text-slate-500">(ended)</span>}
                </td>
                <td className="p-3">{row.detail}</td>
                <td className="p-3">{row.maxUses === null ? row.uses : `${row.uses} of ${row.maxUses}`}</td>
                <td className="p-3">{formatPounds(row.discountTotal)}</td>
                <td className="p-3">
                  {row.id && row.status === 'active' && (
                    <Button size="sm" variant="secondary" onClick={() => void endOffer(row)} aria-label={`End ${row.name}`}>
                      End
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </PanelSection>
  );
}

const PROMO_BLANK: PromoCodeForm = { kind: 'percent', planSlugs: [], maxUses: '100', code: '', value: '', expiresOn: '' };

function PromoCodeCreate() {
  const create = useCreatePromoCode();
  return (
    <PanelSection
      id="promo-code-heading"
      title="New promo code"
      intro="A percentage or an amount off the plans you choose, until the end of its last day, once per person."
    >
      <SettingsForm
        label="New promo code"
        schema={promoCodeSchema}
        defaultValues={{ kind: 'percent', planSlugs: [], maxUses: '100' }}
        save={(values) => create.mutateAsync(promoCodeArgs(values))}
        submitLabel="Create code"
        savedText={(_, values) => `Promo code ${values.code.toUpperCase()} created`}
        doneLabel="Created"
        errorText={(error) => offerErrorText(error, 'Could not create the code. Please try again.')}
        onSaved={(_, __, form) => form.reset(PROMO_BLANK)}
        onFailed={(message, form) => form.setError('code', { message })}
        className="p-4"
      >
        {({ register, field, formState: { errors: e } }) => (
          <>
            <div className="grid gap-4 sm:grid-cols-3">
              <TextField label="Code" autoComplete="off" {...field('code')} />
              <fieldset className="space-y-1.5">
                <legend className="text-sm font-medium text-slate-800">Discount</legend>
                <label className="mr-4 text-sm">
                  <input type="radio" value="percent" {...register('kind')} /> Percentage
                </label>
                <label className="text-sm">
                  <input type="radio" value="amount" {...register('kind')} /> Amount (£)
                </label>
              </fieldset>
              <TextField label="Off (percent or £)" inputMode="decimal" {...field('value')} />
              <TextField label="Last day" type="date" {...field('expiresOn')} />
              <TextField label="Uses in all" type="number" inputMode="numeric" {...field('maxUses')} />
            </div>
            <fieldset aria-describedby={e.planSlugs ? 'promo-plans-error' : undefined}>
              <legend className="text-sm font-medium text-slate-800">For</legend>
              <div className="mt-1 flex flex-wrap gap-4">
                {PLAN_SLUGS.filter((slug) => !PLANS[slug].requiresProof).map((slug) => (
                  <label key={slug} className="text-sm">
                    <input type="checkbox" value={slug} {...register('planSlugs')} /> {PLANS[slug].name}
                  </label>
                ))}
              </div>
              {e.planSlugs && (
                <p id="promo-plans-error" className="text-sm font-medium text-red-700">
                  {e.planSlugs.message}
                </p>
              )}
            </fieldset>
          </>
        )}
      </SettingsForm>
    </PanelSection>
  );
}

const INTRO_BLANK: IntroOfferForm = { planSlug: 'dropin', newWithinDays: '', endsOn: '', name: '', price: '' };

function IntroOfferCreate() {
  const create = useCreateIntroOffer();
  return (
    <PanelSection
      id="intro-offer-heading"
      title="New intro offer"
      intro="A package at an intro price, for people who have not bought from the studio before: once per person."
    >
      <SettingsForm
        label="New intro offer"
        schema={introOfferSchema}
        defaultValues={{ planSlug: 'dropin', newWithinDays: '', endsOn: '' }}
        save={(values) => create.mutateAsync(introOfferArgs(values))}
        submitLabel="Create offer"
        savedText={(_, values) => `Intro offer ${values.name} created`}
        doneLabel="Created"
        errorText={(error) => offerErrorText(error, 'Could not create the offer. Please try again.')}
        onSaved={(_, __, form) => form.reset(INTRO_BLANK)}
        onFailed={(message, form) => form.setError('price', { message })}
        className="p-4"
      >
        {({ register, field }) => (
          <div className="grid gap-4 sm:grid-cols-3">
            <TextField label="Name" {...field('name')} />
            <div className="space-y-1.5">
              <label htmlFor="intro-package" className="block text-sm font-medium text-slate-800">
                Package
              </label>
              <select id="intro-package" className="min-h-11 w-full rounded-lg border border-slate-300 px-3" {...register('planSlug')}>
                <option value="dropin">{PLANS.dropin.name}</option>
                <option value="bronze">{PLANS.bronze.name}</option>
              </select>
            </div>
            <TextField label="Intro price (£)" inputMode="decimal" {...field('price')} />
            <TextField
              label="Within days of joining"
              type="number"
              inputMode="numeric"
              optional
              hint="Empty: any member who has not bought yet."
              {...field('newWithinDays')}
            />
            <TextField label="Last day" type="date" optional {...field('endsOn')} />
          </div>
        )}
      </SettingsForm>
    </PanelSection>
  );
}

function ReferralRewardSettings() {
  const settings = useReferralSettings();
  const save = useSaveReferralSettings();
  const s = settings.data;
  return (
    <PanelSection
      id="referral-heading"
      title="Referral reward"
      intro="What a member and the friend they refer each get when the friend's first payment goes through."
    >
      {settings.isPending ? (
        <Spinner label="Loading the referral reward" />
      ) : (
        <SettingsForm
          label="Referral reward"
          schema={referralSettingsSchema}
          values={
            s
              ? {
                  enabled: s.enabled,
                  rewardKind: s.rewardKind,
                  renewalAmount: s.renewalAmount.toFixed(2),
                  creditValidDays: s.creditValidDays,
                }
              : undefined
          }
          save={(values) => save.mutateAsync(values)}
          submitLabel="Save referral reward"
          savedText="Referral reward saved"
          errorText={(error) => offerErrorText(error, 'Could not save the referral reward. Please try again.')}
          className="p-4"
        >
          {({ register, field }) => (
            <>
              <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
                <input type="checkbox" {...register('enabled')} />
                Members can refer friends
              </label>
              <fieldset>
                <legend className="text-sm font-medium text-slate-800">Reward</legend>
                <label className="mr-4 text-sm">
                  <input type="radio" value="class_credit" {...register('rewardKind')} /> A free class credit
                </label>
                <label className="mr-4 text-sm">
                  <input type="radio" value="session_credit" {...register('rewardKind')} /> A free personal-training session
                </label>
                <label className="text-sm">
                  <input type="radio" value="renewal_discount" {...register('rewardKind')} /> Money off the next renewal
                </label>
              </fieldset>
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField label="Money off a renewal (£)" inputMode="decimal" {...field('renewalAmount')} />
                <TextField label="Session valid for (days)" type="number" inputMode="numeric" {...field('creditValidDays')} />
              </div>
            </>
          )}
        </SettingsForm>
      )}
    </PanelSection>
  );
}
