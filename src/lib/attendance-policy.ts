import { queryOptions, useQuery } from '@tanstack/react-query';
import { formatPounds } from '@/config/plans';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/**
 * The studio's attendance policy (decision 0080) as members read it, shared by the booking screens
 * and the admin's panels. The spec is silent on fees
 * and strikes, so these words are new; the late-cancel window keeps the booking screens' words.
 * No React here: the booking form, the cancel question and the admin panel share them.
 */
export type AttendancePolicy = {
  validFrom: string;
  lateCancelFee: number | null;
  noShowFee: number | null;
  strikeLimit: number | null;
  blockDays: number | null;
};

/** The policy in force at `at` (the newest row from before it), or null when there is none. */
export function policyAt(policies: readonly AttendancePolicy[], at: Date): AttendancePolicy | null {
  let found: AttendancePolicy | null = null;
  for (const p of policies) {
    if (new Date(p.validFrom).getTime() <= at.getTime() && (!found || p.validFrom > found.validFrom)) found = p;
  }
  return found;
}

export const policyIsOn = (p: AttendancePolicy | null): p is AttendancePolicy =>
  p !== null && (p.lateCancelFee !== null || p.noShowFee !== null || p.strikeLimit !== null);

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "3 late cancellations or no-shows within 30 days stop you booking for 7 days." */
export function strikesText(p: AttendancePolicy): string | null {
  if (p.strikeLimit === null || p.blockDays === null) return null;
  return `${p.strikeLimit} late ${p.strikeLimit === 1 ? 'cancellation or no-show' : 'cancellations or no-shows'} within 30 days ${p.strikeLimit === 1 ? 'stops' : 'stop'} you booking for ${plural(p.blockDays, 'day')}.`;
}

/**
 * Said before booking: what a late cancellation (inside `window`, e.g. "12 hours", or each class's
 * own window when null) and a no-show
 * cost, how a fee is taken, and the strikes rule. Null when the policy is off.
 */
export function policyNote(p: AttendancePolicy | null, window: string | null): string | null {
  if (!policyIsOn(p)) return null;
  const late = window ? `cancelling less than ${window} before the start` : "cancelling inside a class's free cancellation time";
  const fees = [
    p.lateCancelFee !== null ? `${late} costs ${formatPounds(p.lateCancelFee)}` : null,
    p.noShowFee !== null ? `not coming without cancelling costs ${formatPounds(p.noShowFee)}` : null,
  ].filter((x): x is string => x !== null);
  const parts = [
    fees.length ? `Attendance policy: ${fees.join('; ')}. Fees are charged to your saved card, or recorded as owed.` : 'Attendance policy:',
    strikesText(p),
  ].filter((x): x is string => x !== null);
  return parts.join(' ');
}

/** Added to the cancel question when cancelling now is late under the booking's policy. */
export function lateCancelFeeText(p: AttendancePolicy | null): string | null {
  if (!policyIsOn(p)) return null;
  const fee =
    p.lateCancelFee !== null
      ? `A late cancellation fee of ${formatPounds(p.lateCancelFee)} will be charged to your saved card, or recorded as owed.`
      : null;
  const strike = p.strikeLimit !== null ? `It counts as a strike: ${strikesText(p)}` : null;
  return [fee, strike].filter((x): x is string => x !== null).join(' ') || null;
}

/** An incident's fee as admins and members read it (attendance_fee_state). */
export const FEE_STATE_TEXT: Record<string, string> = {
  strike: 'Strike only',
  due: 'To be charged',
  charged: 'Charged',
  owed: 'Owed',
  waived: 'Waived',
  refund_owed: 'Waived: refund owed',
};

export const INCIDENT_KIND_TEXT: Record<string, string> = { late_cancel: 'Late cancellation', no_show: 'No-show' };

export async function getAttendancePolicies(): Promise<AttendancePolicy[]> {
  const { data, error } = await supabase
    .from('attendance_policies')
    .select('valid_from, late_cancel_fee, no_show_fee, strike_limit, block_days')
    .order('valid_from');
  if (error) throw error;
  const money = (v: number | null) => (v === null ? null : Number(v));
  return data.map((r) => ({
    validFrom: r.valid_from,
    lateCancelFee: money(r.late_cancel_fee),
    noShowFee: money(r.no_show_fee),
    strikeLimit: r.strike_limit,
    blockDays: r.block_days,
  }));
}

// The policy changes rarely: one read serves every booking screen for a while.
export const attendancePoliciesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.attendance.policies(), queryFn: getAttendancePolicies, staleTime: 5 * 60_000 });

export const useAttendancePolicies = (enabled = true) => useQuery({ ...attendancePoliciesQueryOptions(), enabled });

/** The member's own standing under the policy (`my_attendance_standing`). */
export type AttendanceStanding = { strikes: number; strikeLimit: number | null; blockedUntil: string | null; owed: number };

/**
 * What My Bookings says about the member's standing, or nothing while there is nothing to say:
 * strikes within 30 days (with the rule), a block on booking, fees owed.
 */
export function standingLines(s: AttendanceStanding | null | undefined, formatWhen: (iso: string) => string): string[] {
  if (!s) return [];
  const lines: string[] = [];
  if (s.blockedUntil) lines.push(`You cannot book classes until ${formatWhen(s.blockedUntil)}.`);
  else if (s.strikes > 0 && s.strikeLimit !== null)
    lines.push(
      `${plural(s.strikes, 'late cancellation or no-show', 'late cancellations or no-shows')} within 30 days (${s.strikeLimit} stop you booking).`,
    );
  if (s.owed > 0) lines.push(`You owe ${formatPounds(s.owed)} in attendance fees: the studio will be in touch.`);
  return lines;
}

export async function getMyAttendanceStanding(): Promise<AttendanceStanding> {
  const { data, error } = await supabase.rpc('my_attendance_standing');
  if (error) throw error;
  return {
    strikes: data.strikes ?? 0,
    strikeLimit: data.strike_limit ?? null,
    blockedUntil: data.blocked_until ?? null,
    owed: Number(data.owed ?? 0),
  };
}

export const useMyAttendanceStanding = (memberId: string | null) =>
  useQuery({
    queryKey: queryKeys.attendance.standing(memberId ?? 'none'),
    queryFn: getMyAttendanceStanding,
    enabled: memberId !== null,
  });
