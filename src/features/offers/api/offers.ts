import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { compositeRow, compositeRows } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/**
 * Promo codes, intro offers and referrals (decisions 0083, 0084). The database prices everything:
 * `my_offer_price` is the checkout's own pricing, run without its locks, so the price shown is the
 * price charged; the checkout (create-checkout) prices again when the member pays.
 */

/** `balanceUsed`: what the member's balance pays of `price`; `toCharge`: the card's part (decision 0101). */
export type OfferPrice = {
  listPrice: number;
  discount: number;
  price: number;
  label: string | null;
  balanceUsed: number;
  toCharge: number;
};

export async function getOfferPrice(planSlug: string, promoCode: string | null, introOfferId: string | null): Promise<OfferPrice> {
  const { data, error } = await supabase.rpc('my_offer_price', {
    p_plan_slug: planSlug,
    ...(promoCode ? { p_promo_code: promoCode } : {}),
    ...(introOfferId ? { p_intro_offer_id: introOfferId } : {}),
  });
  if (error) throw error;
  const row = compositeRow<'offer_price', 'list_price' | 'discount' | 'price'>(data);
  return {
    listPrice: Number(row.list_price),
    discount: Number(row.discount),
    price: Number(row.price),
    label: row.label ?? null,
    balanceUsed: Number(row.balance_used ?? 0),
    toCharge: Number(row.to_charge ?? row.price),
  };
}

export type IntroOffer = {
  id: string;
  name: string;
  planSlug: string;
  planName: string;
  listPrice: number;
  price: number;
  endsAt: string | null;
  refusal: string | null;
};

export async function getIntroOffers(): Promise<IntroOffer[]> {
  const { data, error } = await supabase.rpc('my_intro_offers');
  if (error) throw error;
  return compositeRows<'intro_offer_choice', 'id' | 'name' | 'plan_slug' | 'plan_name' | 'list_price' | 'price'>(data ?? []).map((o) => ({
    id: o.id,
    name: o.name,
    planSlug: o.plan_slug,
    planName: o.plan_name,
    listPrice: Number(o.list_price),
    price: Number(o.price),
    endsAt: o.ends_at ?? null,
    refusal: o.refusal ?? null,
  }));
}

export const useIntroOffers = (enabled = true) =>
  useQuery(queryOptions({ queryKey: queryKeys.offers.intro(), queryFn: getIntroOffers, enabled }));

/** The studio's referral reward (referral_settings.reward_kind): a class credit (decision 0102), a personal-training session, or money off. */
export type RewardKind = 'class_credit' | 'session_credit' | 'renewal_discount';

const rewardKind = (value: string): RewardKind => (value === 'renewal_discount' || value === 'class_credit' ? value : 'session_credit');

export type MyReferral = {
  code: string;
  referred: number;
  rewarded: number;
  rewardKind: RewardKind;
  renewalAmount: number;
  enabled: boolean;
};

export async function getMyReferral(): Promise<MyReferral> {
  const { data, error } = await supabase.rpc('my_referral');
  if (error) throw error;
  const r = compositeRow<'my_referral'>(data);
  return {
    code: r.code,
    referred: r.referred,
    rewarded: r.rewarded,
    rewardKind: rewardKind(r.reward_kind),
    renewalAmount: Number(r.renewal_amount),
    enabled: r.enabled,
  };
}

export const useMyReferral = () => useQuery(queryOptions({ queryKey: queryKeys.offers.referral(), queryFn: getMyReferral }));

/** A new member names who referred them (the code their link carried). */
export async function claimReferral(code: string): Promise<void> {
  const { error } = await supabase.rpc('claim_referral', { p_code: code });
  if (error) throw error;
}

// Admins ------------------------------------------------------------------------------------------

export type OfferReportRow = {
  kind: 'promo_code' | 'intro_offer' | 'referrals';
  id: string | null;
  name: string;
  detail: string;
  status: 'active' | 'ended';
  uses: number;
  maxUses: number | null;
  discountTotal: number;
};

export async function getOfferReport(): Promise<OfferReportRow[]> {
  const { data, error } = await supabase.rpc('admin_offer_report');
  if (error) throw error;
  return compositeRows<'offer_report_row', 'kind' | 'name' | 'detail' | 'status' | 'uses' | 'discount_total'>(data ?? []).map((r) => ({
    kind: r.kind as OfferReportRow['kind'],
    id: r.id ?? null,
    name: r.name,
    detail: r.detail,
    status: r.status === 'active' ? 'active' : 'ended',
    uses: r.uses,
    maxUses: r.max_uses ?? null,
    discountTotal: Number(r.discount_total),
  }));
}

export const useOfferReport = () => useQuery(queryOptions({ queryKey: queryKeys.offers.report(), queryFn: getOfferReport }));

export type ReferralSettings = {
  enabled: boolean;
  rewardKind: RewardKind;
  renewalAmount: number;
  creditValidDays: number;
};

export async function getReferralSettings(): Promise<ReferralSettings> {
  const { data, error } = await supabase
    .from('referral_settings')
    .select('enabled, reward_kind, renewal_amount, credit_valid_days')
    .single();
  if (error) throw error;
  return {
    enabled: data.enabled,
    rewardKind: rewardKind(data.reward_kind),
    renewalAmount: Number(data.renewal_amount),
    creditValidDays: data.credit_valid_days,
  };
}

export const useReferralSettings = () =>
  useQuery(queryOptions({ queryKey: queryKeys.offers.referralSettings(), queryFn: getReferralSettings }));

function useOffersMutation<A>(fn: (args: A) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.offers.all }),
  });
}

export type NewPromoCode = {
  code: string;
  planSlugs: string[];
  expiresAt: string;
  maxUses: number;
  percentOff: number | null;
  amountOff: number | null;
};

export const useCreatePromoCode = () =>
  useOffersMutation(async (c: NewPromoCode) => {
    const { error } = await supabase.rpc('admin_create_promo_code', {
      p_code: c.code,
      p_plan_slugs: c.planSlugs,
      p_expires_at: c.expiresAt,
      p_max_uses: c.maxUses,
      ...(c.percentOff !== null ? { p_percent_off: c.percentOff } : {}),
      ...(c.amountOff !== null ? { p_amount_off: c.amountOff } : {}),
    });
    if (error) throw error;
  });

export type NewIntroOffer = { name: string; planSlug: string; price: number; newWithinDays: number | null; endsAt: string | null };

export const useCreateIntroOffer = () =>
  useOffersMutation(async (o: NewIntroOffer) => {
    const { error } = await supabase.rpc('admin_create_intro_offer', {
      p_name: o.name,
      p_plan_slug: o.planSlug,
      p_price: o.price,
      ...(o.newWithinDays !== null ? { p_new_within_days: o.newWithinDays } : {}),
      ...(o.endsAt !== null ? { p_ends_at: o.endsAt } : {}),
    });
    if (error) throw error;
  });

export const useEndOffer = () =>
  useOffersMutation(async (row: Pick<OfferReportRow, 'kind' | 'id'>) => {
    const { error } = await supabase.rpc(
      'admin_end_offer',
      row.kind === 'promo_code' ? { p_promo_code_id: row.id ?? undefined } : { p_intro_offer_id: row.id ?? undefined },
    );
    if (error) throw error;
  });

export const useSaveReferralSettings = () =>
  useOffersMutation(async (s: ReferralSettings) => {
    const { error } = await supabase.rpc('admin_set_referral_settings', {
      p_enabled: s.enabled,
      p_reward_kind: s.rewardKind,
      p_renewal_amount: s.renewalAmount,
      p_credit_valid_days: s.creditValidDays,
    });
    if (error) throw error;
  });

/** The database's message for a refusal (a hint it raised), else `fallback`. */
export function offerErrorText(error: unknown, fallback: string): string {
  const e = error as { hint?: string; message?: string } | null;
  return e?.hint && e.message && e.hint !== 'not_admin' ? e.message : fallback;
}
