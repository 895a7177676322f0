import { MEMBER_NAME_MAX_LENGTH } from '@/lib/rules/member-name';

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
  /** members.name's limit (said on the field, not as "Failed to update profile"). */
  nameTooLong: `Your name is too long (at most ${MEMBER_NAME_MAX_LENGTH} characters)`,
  phoneTooLong: 'Your phone number is too long (at most 40 characters)',
  /** Not a phone number by the database's rule (private.is_phone_number): said on the field. */
  phoneInvalid: 'Enter a phone number with digits, spaces, brackets or hyphens, like 07700 900123 or +44 7700 900123',
  profileUpdated: 'Profile updated successfully!',
  profileFailed: 'Failed to update profile. Please try again.',
  // The database refuses the same (members_check_date_of_birth).
  dateOfBirthInFuture: 'Date of birth cannot be in the future',
} as const;

/**
 * The image type a file's first bytes say it is (PNG, JPEG, GIF signatures), or null: a text file
 * named fake.png is not a photo. The bucket only compares the declared type, as hosted
 * Storage does, so the content is checked here before anything is sent.
 */
export function sniffImageType(head: Uint8Array): (typeof AVATAR_TYPES)[number] | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61) return 'image/gif';
  return null;
}

/** The file extension the object is stored under: `<member id>.<ext>`. */
export function avatarExtension(file: Pick<File, 'type' | 'name'>): string {
  const fromName = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  if (fromName && ['jpg', 'jpeg', 'png', 'gif'].includes(fromName)) return fromName;
  return file.type === 'image/png' ? 'png' : file.type === 'image/gif' ? 'gif' : 'jpg';
}

/**
 * Whether a (trimmed) phone number is one the database takes (private.is_phone_number, 00_foundation.sql):
 * a UK number (0 and 10 or 11 digits) or an international one (+ or 00, a country code and 7 to 15
 * digits; a "(0)" after the country code is not dialled), written with digits, spaces, brackets
 * and hyphens only.
 */
export function isPhoneNumber(phone: string): boolean {
  if (!/^\+?[0-9() -]+$/.test(phone)) return false;
  const digits = phone.replaceAll('(0)', '').replace(/[^0-9]/g, '');
  if (phone.startsWith('+')) return /^[1-9][0-9]{6,14}$/.test(digits);
  if (digits.startsWith('00')) return /^00[1-9][0-9]{6,14}$/.test(digits);
  return /^0[0-9]{9,10}$/.test(digits);
}
