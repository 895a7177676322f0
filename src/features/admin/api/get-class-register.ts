import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRows, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** One booked member on a class register: contact, emergency contact, age, PAR-Q flag (issue 27). */
export type RegisterEntry = CompositeRow<
  'register_entry',
  'booking_id' | 'member_id' | 'email' | 'health_flag' | 'health_yes' | 'documents_current'
>;

/** The class register (admins): admin_class_register. */
export async function getClassRegister(classId: string): Promise<RegisterEntry[]> {
  const { data, error } = await supabase.rpc('admin_class_register', { p_class_id: classId });
  if (error) throw error;
  return compositeRows<'register_entry', 'booking_id' | 'member_id' | 'email' | 'health_flag' | 'health_yes' | 'documents_current'>(data);
}

export const classRegisterQueryOptions = (classId: string) =>
  queryOptions({ queryKey: queryKeys.admin.register(classId), queryFn: () => getClassRegister(classId) });

export const useClassRegister = (classId: string) => useQuery(classRegisterQueryOptions(classId));

export { ageOn } from '@/lib/age';
