import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { londonToday } from '@/lib/studio-calendar';
import { MEMBER_NAME_MAX_LENGTH } from '@/lib/rules/member-name';
import { isPhoneNumber, PROFILE_MESSAGES } from '../lib/profile-rules';

const optionalText = z
  .string()
  .trim()
  .transform((text) => text || null);

/** A phone number or nothing (blank): the database refuses anything else (members' phone checks). */
const optionalPhone = z
  .string()
  .trim()
  .max(40, PROFILE_MESSAGES.phoneTooLong)
  .refine((phone) => phone === '' || isPhoneNumber(phone), PROFILE_MESSAGES.phoneInvalid)
  .transform((phone) => phone || null);

/**
 * Profile Information (spec section 5): name required, phone optional (blank means none); email is
 * read-only. Date of birth (never in the future) and an emergency contact, all optional.
 * The name takes at most 100 characters and both phones only phone numbers, as the database does.
 */
export const profileInfoSchema = z.object({
  name: z.string().trim().min(1, PROFILE_MESSAGES.nameRequired).max(MEMBER_NAME_MAX_LENGTH, PROFILE_MESSAGES.nameTooLong),
  phone: optionalPhone,
  dateOfBirth: z
    .string()
    .refine((dob) => dob === '' || dob <= londonToday(), PROFILE_MESSAGES.dateOfBirthInFuture)
    .transform((dob) => dob || null),
  emergencyContactName: optionalText,
  emergencyContactPhone: optionalPhone,
});
export type ProfileInfoForm = z.input<typeof profileInfoSchema>;
export type ProfileInfo = z.output<typeof profileInfoSchema>;

/**
 * Saves name, phone, date of birth and emergency contact (the profile columns a member may write besides the photo). Asks for
 * the row back: a refusal by row-level security updates nothing without an error.
 */
export async function updateProfile({ memberId, values }: { memberId: string; values: ProfileInfoForm | ProfileInfo }): Promise<void> {
  const parsed = profileInfoSchema.parse({
    name: values.name,
    phone: values.phone ?? '',
    dateOfBirth: values.dateOfBirth ?? '',
    emergencyContactName: values.emergencyContactName ?? '',
    emergencyContactPhone: values.emergencyContactPhone ?? '',
  });
  const { data, error } = await supabase
    .from('members')
    .update({
      name: parsed.name,
      phone: parsed.phone,
      date_of_birth: parsed.dateOfBirth,
      emergency_contact_name: parsed.emergencyContactName,
      emergency_contact_phone: parsed.emergencyContactPhone,
    })
    .eq('id', memberId)
    .select('id');
  if (error) throw error;
  if (!data?.length) throw new Error('Profile not updated');
}

/** The profile and the signed-in member's row (header avatar, greetings) show the new name. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.profile.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.member.all }),
      ]),
  });
}
