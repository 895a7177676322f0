import { describe, expect, it } from 'vitest';
import { avatarFileSchema } from '../api/upload-avatar';
import { profileInfoSchema } from '../api/update-profile';
import { avatarExtension, MAX_AVATAR_BYTES } from './profile-rules';

const fileError = (type: string, size: number) => avatarFileSchema.safeParse({ type, size, name: 'x' }).error?.issues[0]?.message ?? null;

describe('avatarFileSchema', () => {
  it('accepts JPG, PNG and GIF just under 5MB', () => {
    expect(fileError('image/jpeg', MAX_AVATAR_BYTES - 1)).toBeNull();
    expect(fileError('image/png', 10)).toBeNull();
    expect(fileError('image/gif', 10)).toBeNull();
  });
  it('refuses exactly 5MB and more', () => {
    expect(fileError('image/png', MAX_AVATAR_BYTES)).toBe('Image must be less than 5MB');
  });
  it('refuses anything that is not one of the accepted images', () => {
    expect(fileError('application/pdf', 10)).toBe('Please select an image file');
    expect(fileError('', 10)).toBe('Please select an image file');
    expect(fileError('image/webp', 10)).toBe('Please select an image file');
  });
});

describe('avatarExtension', () => {
  it('keeps the file’s own extension or derives one from the type', () => {
    expect(avatarExtension({ name: 'Me.PNG', type: 'image/png' })).toBe('png');
    expect(avatarExtension({ name: 'photo.jpeg', type: 'image/jpeg' })).toBe('jpeg');
    expect(avatarExtension({ name: 'blob', type: 'image/gif' })).toBe('gif');
    expect(avatarExtension({ name: 'x.exe', type: 'image/jpeg' })).toBe('jpg');
  });
});

describe('profileInfoSchema', () => {
  it('requires a name that is not only spaces; the phone is optional and empty means none', () => {
    expect(profileInfoSchema.safeParse({ name: '   ', phone: '' }).error?.issues[0]?.message).toBe('Name is required');
    expect(profileInfoSchema.parse({ name: ' Sam ', phone: ' ' })).toEqual({ name: 'Sam', phone: null });
  });
});
