import { useMutation } from '@tanstack/react-query';
import { supabase } from '../supabase';
import { newPasswordSchema, type NewPassword } from './password-rules';

/**
 * Sets a new password for the signed-in user (Change Password on /edit-profile and the reset
 * link's last step), after the same checks the forms make.
 */
export async function updatePassword(values: NewPassword): Promise<void> {
  const { password } = newPasswordSchema.parse(values);
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}

export const useUpdatePassword = () => useMutation({ mutationFn: updatePassword });
