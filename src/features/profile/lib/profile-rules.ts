/** Profile limits and copy of spec sections 5, 8 and 9, verbatim. */
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
/** JPG, PNG and GIF: what the avatars bucket accepts. */
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;

export const PROFILE_MESSAGES = {
  loadFailed: 'Failed to load profile data',
  notAnImage: 'Please select an image file',
  imageTooLarge: 'Image must be less than 5MB',
  photoUpdated: 'Profile picture updated successfully!',
  photoFailed: 'Failed to upload image. Please try again.',
  nameRequired: 'Name is required',
  profileUpdated: 'Profile updated successfully!',
  profileFailed: 'Failed to update profile. Please try again.',
} as const;

/** The file extension the object is stored under: `<member id>.<ext>`. */
export function avatarExtension(file: Pick<File, 'type' | 'name'>): string {
  const fromName = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  if (fromName && ['jpg', 'jpeg', 'png', 'gif'].includes(fromName)) return fromName;
  return file.type === 'image/png' ? 'png' : file.type === 'image/gif' ? 'gif' : 'jpg';
}
