import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { AVATAR_TYPES, MAX_AVATAR_BYTES, PROFILE_MESSAGES, avatarExtension } from '../lib/profile-rules';

export const AVATAR_BUCKET = 'avatars';

/**
 * A photo must be an image the bucket takes (JPG, PNG, GIF) and under 5MB (spec section 5). Other
 * image types get the "select an image file" message too: the bucket would refuse them anyway.
 */
export const avatarFileSchema = z
  .object({ type: z.string(), size: z.number(), name: z.string() })
  .refine((file) => (AVATAR_TYPES as readonly string[]).includes(file.type), { message: PROFILE_MESSAGES.notAnImage, abort: true })
  .refine((file) => file.size < MAX_AVATAR_BYTES, { message: PROFILE_MESSAGES.imageTooLarge });

/**
 * Stores the photo as `<member id>.<ext>` in the avatars bucket, replacing the previous one, and
 * points the member row at its public URL. The URL carries a cache-busting query so browsers show
 * the new image at once although the object name is unchanged.
 */
export async function uploadAvatar({ memberId, file }: { memberId: string; file: File }): Promise<string> {
  avatarFileSchema.parse(file);
  const path = `${memberId}.${avatarExtension(file)}`;
  const bucket = supabase.storage.from(AVATAR_BUCKET);
  const { error: uploadError } = await bucket.upload(path, file, { upsert: true, contentType: file.type });
  if (uploadError) throw uploadError;
  const url = `${bucket.getPublicUrl(path).data.publicUrl}?t=${Date.now()}`;
  const { data, error } = await supabase.from('members').update({ profile_image_url: url }).eq('id', memberId).select('id');
  if (error) throw error;
  if (!data?.length) throw new Error('Profile image not saved');
  return url;
}

export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadAvatar,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.profile.all }), queryClient.invalidateQueries({ queryKey: queryKeys.member.all })]),
  });
}
