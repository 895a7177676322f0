import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { compositeRows } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type Tables } from '@/lib/supabase';
import { PAY_BASES, type PayBasis, type PayLine } from './pay-lines';

type Row = {
  class_id: string | null;
  class_name: string | null;
  class_type: string | null;
  start_time: string | null;
  attendees: number | null;
  basis: string | null;
  base_amount: number | string | null;
  per_attendee: number | string | null;
  amount: number | string | null;
};

const money = (v: number | string | null) => (v === null ? null : Number(v));

function toPayLines(data: unknown): PayLine[] {
  return compositeRows<'coach_pay_line'>(data as never).map((raw) => {
    const r = raw as Row;
    return {
      classId: r.class_id ?? '',
      className: r.class_name ?? '',
      classType: r.class_type ?? '',
      startTime: r.start_time ?? '',
      attendees: r.attendees ?? 0,
      basis: (PAY_BASES as readonly string[]).includes(r.basis ?? '') ? (r.basis as PayBasis) : null,
      baseAmount: money(r.base_amount),
      perAttendee: money(r.per_attendee),
      amount: money(r.amount),
    };
  });
}

/** The first day of a month ('2026-11' → '2026-11-01'), as the statements take it. */
const firstDay = (month: string) => `${month}-01`;

/** Any coach's statement for a month (admins; the database refuses anyone else). */
export async function getAdminPayStatement(trainerId: string, month: string): Promise<PayLine[]> {
  const { data, error } = await supabase.rpc('admin_coach_pay_statement', { p_trainer_id: trainerId, p_month: firstDay(month) });
  if (error) throw error;
  return toPayLines(data);
}

export const useAdminPayStatement = (trainerId: string, month: string) =>
  useQuery({
    queryKey: queryKeys.admin.coachPay(trainerId, month),
    queryFn: () => getAdminPayStatement(trainerId, month),
    enabled: trainerId !== '' && /^\d{4}-\d{2}$/.test(month),
  });

/** The caller's own statement (coaches). */
export async function getMyPayStatement(month: string): Promise<PayLine[]> {
  const { data, error } = await supabase.rpc('my_coach_pay_statement', { p_month: firstDay(month) });
  if (error) throw error;
  return toPayLines(data);
}

export const useMyPayStatement = (month: string) =>
  useQuery({ queryKey: queryKeys.coach.pay(month), queryFn: () => getMyPayStatement(month), enabled: /^\d{4}-\d{2}$/.test(month) });

export type PayRate = Tables<'coach_pay_rates'>;

/** Every rate (admins: RLS shows a coach only their own), latest first. */
export async function getPayRates(): Promise<PayRate[]> {
  const { data, error } = await supabase
    .from('coach_pay_rates')
    .select('id, trainer_id, class_type, basis, base_amount, per_attendee, effective_from, created_at, created_by')
    .order('effective_from', { ascending: false });
  if (error) throw error;
  return data;
}

export const usePayRates = () => useQuery({ queryKey: queryKeys.admin.payRates(), queryFn: getPayRates });

export type PayRateInput = {
  trainerId: string;
  classType: string;
  basis: PayBasis;
  baseAmount: number;
  perAttendee: number;
  effectiveFrom: string;
};

export async function setPayRate(input: PayRateInput): Promise<void> {
  const { error } = await supabase.rpc('set_coach_pay_rate', {
    p_trainer_id: input.trainerId,
    p_class_type: input.classType,
    p_basis: input.basis,
    p_base_amount: input.baseAmount,
    p_per_attendee: input.perAttendee,
    p_effective_from: input.effectiveFrom,
  });
  if (error) throw error;
}

export function useSetPayRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPayRate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
