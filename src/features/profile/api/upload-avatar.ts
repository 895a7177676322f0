import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { loadStorage } from '@/lib/supabase-loader';
import { AVATAR_TYPES, MAX_AVATAR_BYTES, PROFILE_MESSAGES, avatarExtension, sniffImageType } from '../lib/profile-rules';

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
/** A file's first `count` bytes (FileReader: every browser, and jsdom in the screen tests). */
function firstBytes(file: Blob, count: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.readAsArrayBuffer(file.slice(0, count));
  });
}

/** The content type a chosen photo really has (its first bytes), or why it cannot be one: the spec's messages. */
export async function checkAvatarFile(file: File): Promise<{ contentType: (typeof AVATAR_TYPES)[number] } | { problem: string }> {
  const problem = avatarFileSchema.safeParse(file).error?.issues[0]?.message;
  if (problem) return { problem };
  // The name and the declared type say nothing of the content (a text file named fake.png).
  const contentType = sniffImageType(await firstBytes(file, 16));
  return contentType ? { contentType } : { problem: PROFILE_MESSAGES.notAnImage };
}

export async function uploadAvatar({ memberId, file }: { memberId: string; file: File }): Promise<string> {
  const checked = await checkAvatarFile(file);
  if ('problem' in checked) throw new Error(checked.problem);
  const { contentType } = checked;
  const path = `${memberId}.${avatarExtension({ name: '', type: contentType })}`;
  const bucket = (await loadStorage()).from(AVATAR_BUCKET);
  const { error: uploadError } = await bucket.upload(path, file, { upsert: true, contentType });
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
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.profile.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.member.all }),
      ]),
  });
}
