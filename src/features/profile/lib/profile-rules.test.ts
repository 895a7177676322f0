import { describe, expect, it } from 'vitest';
import { avatarExtension, avatarFileError, MAX_AVATAR_BYTES, nameError, passwordChangeError } from './profile-rules';

describe('avatarFileError', () => {
  it('accepts JPG, PNG and GIF just under 5MB', () => {
    expect(avatarFileError({ type: 'image/jpeg', size: MAX_AVATAR_BYTES - 1 })).toBeNull();
    expect(avatarFileError({ type: 'image/png', size: 10 })).toBeNull();
    expect(avatarFileError({ type: 'image/gif', size: 10 })).toBeNull();
  });
  it('refuses exactly 5MB and more', () => {
    expect(avatarFileError({ type: 'image/png', size: MAX_AVATAR_BYTES })).toBe('Image must be less than 5MB');
  });
  it('refuses anything that is not one of the accepted images', () => {
    expect(avatarFileError({ type: 'application/pdf', size: 10 })).toBe('Please select an image file');
    expect(avatarFileError({ type: '', size: 10 })).toBe('Please select an image file');
    expect(avatarFileError({ type: 'image/webp', size: 10 })).toBe('Please select an image file');
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

describe('nameError', () => {
  it('requires a name that is not only spaces', () => {
    expect(nameError('   ')).toBe('Name is required');
    expect(nameError('Sam')).toBeNull();
  });
});

describe('passwordChangeError', () => {
  it('requires both fields first', () => {
    expect(passwordChangeError('', '')).toBe('Please fill in both password fields');
    expect(passwordChangeError('abcdef', '')).toBe('Please fill in both password fields');
  });
  it('needs at least 6 characters (5 refused, 6 accepted)', () => {
    expect(passwordChangeError('abcde', 'abcde')).toBe('Password must be at least 6 characters long');
    expect(passwordChangeError('abcdef', 'abcdef')).toBeNull();
  });
  it('needs both to match', () => {
    expect(passwordChangeError('abcdef', 'abcdeg')).toBe('Passwords do not match');
  });
});
