import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Tables } from '@/lib/supabase';
import { Constants } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

/**
 * The member's credits they can still use: personal-training sessions and guest
 * passes not used, not revoked and not expired, soonest expiry first. Row-level security returns
 * only the caller's own; the database granted each one (a paid package or period, an admin).
 */
export type CreditRow = Pick<Tables<'credits'>, 'kind' | 'valid_from' | 'expires_at'>;

export async function getMyCredits(now: Date = new Date()): Promise<CreditRow[]> {
  const { data, error } = await (
    await loadSupabase()
  )
    .from('credits')
    .select('kind, valid_from, expires_at')
    .is('used_at', null)
    .is('revoked_at', null)
    .gt('expires_at', now.toISOString())
    .order('expires_at');
  if (error) throw error;
  return data;
}

export const myCreditsQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.credits.mine(memberId), queryFn: () => getMyCredits() });

export const useMyCredits = (memberId: string | null) => useQuery({ ...myCreditsQueryOptions(memberId ?? ''), enabled: memberId !== null });

export type CreditSummary = { kind: CreditRow['kind']; count: number; nextExpiry: string };

/** How many of each kind, and when the first of them expires (rows come soonest first). */
export function summariseCredits(rows: readonly CreditRow[]): CreditSummary[] {
  const byKind = new Map<CreditRow['kind'], CreditSummary>();
  for (const row of rows) {
    const seen = byKind.get(row.kind);
    if (seen) seen.count += 1;
    else byKind.set(row.kind, { kind: row.kind, count: 1, nextExpiry: row.expires_at });
  }
  return Constants.public.Enums.credit_kind.flatMap((kind) => byKind.get(kind) ?? []);
}
