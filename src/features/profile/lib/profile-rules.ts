/** Profile limits and copy of spec sections 5, 8 and 9, verbatim. */
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
/** JPG, PNG and GIF: what the avatars bucket accepts. */
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;
export const MIN_PASSWORD_LENGTH = 6;

export const PROFILE_MESSAGES = {
  loadFailed: 'Failed to load profile data',
  notAnImage: 'Please select an image file',
  imageTooLarge: 'Image must be less than 5MB',
  photoUpdated: 'Profile picture updated successfully!',
  photoFailed: 'Failed to upload image. Please try again.',
  nameRequired: 'Name is required',
  profileUpdated: 'Profile updated successfully!',
  profileFailed: 'Failed to update profile. Please try again.',
  passwordsMissing: 'Please fill in both password fields',
  passwordTooShort: 'Password must be at least 6 characters long',
  passwordsDiffer: 'Passwords do not match',
  passwordUpdated: 'Password updated successfully!',
  passwordFailed: 'Failed to change password. Please try again.',
} as const;

/**
 * A photo must be an image the bucket takes (JPG, PNG, GIF) and under 5MB. Other image types
 * get the "select an image file" message too: the bucket would refuse them anyway.
 */
export function avatarFileError(file: Pick<File, 'type' | 'size'>): string | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return PROFILE_MESSAGES.notAnImage;
  if (file.size >= MAX_AVATAR_BYTES) return PROFILE_MESSAGES.imageTooLarge;
  return null;
}

/** The file extension the object is stored under: `<member id>.<ext>`. */
export function avatarExtension(file: Pick<File, 'type' | 'name'>): string {
  const fromName = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  if (fromName && ['jpg', 'jpeg', 'png', 'gif'].includes(fromName)) return fromName;
  return file.type === 'image/png' ? 'png' : file.type === 'image/gif' ? 'gif' : 'jpg';
}

export function nameError(name: string): string | null {
  return name.trim() ? null : PROFILE_MESSAGES.nameRequired;
}

/** Both required, then at least 6 characters, then matching (spec section 5). */
export function passwordChangeError(password: string, confirm: string): string | null {
  if (!password || !confirm) return PROFILE_MESSAGES.passwordsMissing;
  if (password.length < MIN_PASSWORD_LENGTH) return PROFILE_MESSAGES.passwordTooShort;
  if (password !== confirm) return PROFILE_MESSAGES.passwordsDiffer;
  return null;
}
