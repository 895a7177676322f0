import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import type { Member } from '@/lib/supabase';
import { profileInfoSchema, useUpdateProfile, type ProfileInfo, type ProfileInfoForm as Values } from '../api/update-profile';
import { londonToday } from '@/lib/studio-calendar';
import { PROFILE_MESSAGES } from '../lib/profile-rules';

/** A check on members that refused the update (23514, named in the message), as the field it is about. */
function refusedField(error: Error): { name: keyof Values; message: string } | null {
  if (!('code' in error) || error.code !== '23514') return null;
  if (error.message.includes('members_emergency_contact_phone'))
    return { name: 'emergencyContactPhone', message: PROFILE_MESSAGES.phoneInvalid };
  if (error.message.includes('members_phone')) return { name: 'phone', message: PROFILE_MESSAGES.phoneInvalid };
  if (error.message.includes('members_name')) return { name: 'name', message: PROFILE_MESSAGES.nameTooLong };
  return null;
}

/** Name (required), phone, date of birth and emergency contact (optional), email (read-only: it is the sign-in identity). */
export function ProfileInfoForm({ member, onSaved }: { member: Member; onSaved: () => void }) {
  const updateProfile = useUpdateProfile();
  const { register, handleSubmit, formState, setError } = useForm<Values, unknown, ProfileInfo>({
    resolver: zodResolver(profileInfoSchema),
    defaultValues: {
      name: member.name ?? '',
      phone: member.phone ?? '',
      dateOfBirth: member.date_of_birth ?? '',
      emergencyContactName: member.emergency_contact_name ?? '',
      emergencyContactPhone: member.emergency_contact_phone ?? '',
    },
  });

  const submit = handleSubmit((values) => {
    if (updateProfile.isPending) return;
    updateProfile.mutate(
      { memberId: member.id, values },
      {
        onSuccess: () => {
          toast.success(PROFILE_MESSAGES.profileUpdated);
          onSaved();
        },
        onError: (error) => {
          // The database's own checks, should the form's ever let something through: on the field.
          const field = refusedField(error);
          if (field) setError(field.name, { message: field.message }, { shouldFocus: true });
          else
            toast.error(
              'hint' in error && error.hint === 'date_of_birth_in_future'
                ? PROFILE_MESSAGES.dateOfBirthInFuture
                : PROFILE_MESSAGES.profileFailed,
            );
        },
      },
    );
  });

  return (
    <Card>
      <h2 className="text-lg font-semibold">Profile Information</h2>
      <form noValidate onSubmit={(e) => void submit(e)} className="mt-4 space-y-4">
        <TextField label="Full Name" autoComplete="name" required error={formState.errors.name?.message} {...register('name')} />
        <TextField label="Phone" type="tel" autoComplete="tel" optional error={formState.errors.phone?.message} {...register('phone')} />
        <TextField
          label="Date of birth"
          type="date"
          autoComplete="bday"
          optional
          max={londonToday()}
          error={formState.errors.dateOfBirth?.message}
          {...register('dateOfBirth')}
        />
        <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-800">Emergency contact</legend>
          <TextField label="Emergency contact name" autoComplete="off" optional {...register('emergencyContactName')} />
          <TextField
            label="Emergency contact phone"
            type="tel"
            autoComplete="off"
            optional
            error={formState.errors.emergencyContactPhone?.message}
            {...register('emergencyContactPhone')}
          />
        </fieldset>
        <TextField
          label="Email"
          name="email"
          type="email"
          value={member.email}
          readOnly
          disabled
          hint="Your email is your sign-in and cannot be changed here."
        />
        <Button type="submit" loading={updateProfile.isPending}>
          {updateProfile.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </form>
    </Card>
  );
}
