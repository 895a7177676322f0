import { supabase } from '@/lib/supabase';
import { avatarExtension } from '../lib/profile-rules';

export const AVATAR_BUCKET = 'avatars';

/**
 * Stores the photo as `<member id>.<ext>` in the avatars bucket, replacing the previous one, and
 * points the member row at its public URL. The URL carries a cache-busting query so browsers show
 * the new image at once although the object name is unchanged.
 */
export async function uploadAvatar(memberId: string, file: File): Promise<string> {
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
