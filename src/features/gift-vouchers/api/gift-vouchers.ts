import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { compositeRow, compositeRows } from '@/lib/composite-row';
import { callOpenFunction } from '@/lib/functions-client';
import type { FunctionRequest } from '@/lib/functions-contract';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/**
 * Gift vouchers and the member's balance (decisions 0100, 0101). The database checks and prices
 * everything: the buyer's form sends an amount or a package slug, the checkout function records
 * the voucher and starts the card checkout; redeeming and the balance are RPCs.
 */

export type GiftVoucherPackage = { slug: string; name: string; price: number };
export type GiftVoucherOptions = { minAmount: number; maxAmount: number; expiryMonths: number; packages: GiftVoucherPackage[] };

export async function getGiftVoucherOptions(): Promise<GiftVoucherOptions> {
  const { data, error } = await supabase.rpc('gift_voucher_options');
  if (error) throw error;
  const row = compositeRow<'gift_voucher_options', 'min_amount' | 'max_amount' | 'expiry_months'>(data);
  const packages = Array.isArray(row.packages) ? (row.packages as { slug: string; name: string; price: number | string }[]) : [];
  return {
    minAmount: row.min_amount,
    maxAmount: row.max_amount,
    expiryMonths: row.expiry_months,
    packages: packages.map((p) => ({ slug: p.slug, name: p.name, price: Number(p.price) })),
  };
}

export const useGiftVoucherOptions = () =>
  useQuery(queryOptions({ queryKey: queryKeys.giftVouchers.options(), queryFn: getGiftVoucherOptions }));

export type BuyGiftVoucher = FunctionRequest<'buy-gift-voucher'>;

/** Records the voucher and sends the browser to the card checkout. */
export const useBuyGiftVoucher = () =>
  useMutation({
    mutationFn: (request: BuyGiftVoucher) => callOpenFunction('buy-gift-voucher', request),
    onSuccess: ({ url }) => window.location.assign(url),
  });

export const useGiftVoucherCheckout = (reference: string) =>
  useQuery(
    queryOptions({
      queryKey: queryKeys.giftVouchers.checkout(reference),
      queryFn: () => callOpenFunction('gift-voucher-status', { reference }),
      enabled: reference !== '',
      // Asked again until the provider's answer is in.
      refetchInterval: (query) => (query.state.data?.status === 'pending' ? 3000 : false),
    }),
  );

export type Redemption = {
  outcome: 'redeemed' | 'unknown_code' | 'expired' | 'already_redeemed' | 'too_many_tries';
  amount: number | null;
  balance: number;
  message: string;
};

export async function redeemGiftVoucher(code: string): Promise<Redemption> {
  const { data, error } = await supabase.rpc('redeem_gift_voucher', { p_code: code });
  if (error) throw error;
  const row = compositeRow<'gift_voucher_redemption', 'outcome' | 'balance' | 'message'>(data);
  return {
    outcome: row.outcome as Redemption['outcome'],
    amount: row.amount == null ? null : Number(row.amount),
    balance: Number(row.balance),
    message: row.message,
  };
}

export const useRedeemGiftVoucher = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: redeemGiftVoucher,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.giftVouchers.balance() }),
  });
};

export type BalanceLine = { id: string; amount: number; kind: 'voucher' | 'spent' | 'returned'; description: string; createdAt: string };
export type MyBalance = { balance: number; history: BalanceLine[] };

export async function getMyBalance(): Promise<MyBalance> {
  const [balance, history] = await Promise.all([supabase.rpc('my_balance'), supabase.rpc('my_balance_history')]);
  if (balance.error) throw balance.error;
  if (history.error) throw history.error;
  return {
    balance: Number(balance.data ?? 0),
    history: compositeRows<'balance_line', 'id' | 'amount' | 'kind' | 'description' | 'created_at'>(history.data ?? []).map((l) => ({
      id: l.id,
      amount: Number(l.amount),
      kind: l.kind as BalanceLine['kind'],
      description: l.description,
      createdAt: l.created_at,
    })),
  };
}

export const useMyBalance = () => useQuery(queryOptions({ queryKey: queryKeys.giftVouchers.balance(), queryFn: getMyBalance }));

export type AdminGiftVoucher = {
  id: string;
  code: string;
  status: 'sold' | 'delivered' | 'redeemed' | 'expired';
  amount: number;
  packageName: string | null;
  buyerName: string;
  buyerEmail: string;
  recipientName: string;
  recipientEmail: string;
  deliverOn: string;
  createdAt: string;
  redeemedAt: string | null;
  redeemedByName: string | null;
  expiresAt: string;
};

export async function getAdminGiftVouchers(search: string): Promise<AdminGiftVoucher[]> {
  const { data, error } = await supabase.rpc('admin_gift_vouchers', search.trim() ? { p_search: search.trim() } : {});
  if (error) throw error;
  return compositeRows<
    'gift_voucher_row',
    | 'id'
    | 'code'
    | 'status'
    | 'amount'
    | 'buyer_name'
    | 'buyer_email'
    | 'recipient_name'
    | 'recipient_email'
    | 'deliver_on'
    | 'created_at'
    | 'expires_at'
  >(data ?? []).map((v) => ({
    id: v.id,
    code: v.code,
    status: v.status as AdminGiftVoucher['status'],
    amount: Number(v.amount),
    packageName: v.package_name ?? null,
    buyerName: v.buyer_name,
    buyerEmail: v.buyer_email,
    recipientName: v.recipient_name,
    recipientEmail: v.recipient_email,
    deliverOn: v.deliver_on,
    createdAt: v.created_at,
    redeemedAt: v.redeemed_at ?? null,
    redeemedByName: v.redeemed_by_name ?? null,
    expiresAt: v.expires_at,
  }));
}

export const useAdminGiftVouchers = (search: string) =>
  useQuery(queryOptions({ queryKey: queryKeys.giftVouchers.admin(search), queryFn: () => getAdminGiftVouchers(search) }));

export const useExtendGiftVoucher = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, expiresAt }: { id: string; expiresAt: string }) => {
      const { error } = await supabase.rpc('admin_extend_gift_voucher', { p_voucher_id: id, p_expires_at: expiresAt });
      if (error) throw error;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.giftVouchers.all }),
  });
};

export const useSaveGiftVoucherSettings = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (s: { minAmount: number; maxAmount: number; expiryMonths: number }) => {
      const { error } = await supabase.rpc('admin_set_gift_voucher_settings', {
        p_min_amount: s.minAmount,
        p_max_amount: s.maxAmount,
        p_expiry_months: s.expiryMonths,
      });
      if (error) throw error;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.giftVouchers.options() }),
  });
};
