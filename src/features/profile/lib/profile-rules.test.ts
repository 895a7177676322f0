import { describe, expect, it } from 'vitest';
import { NOT_PHONE_NUMBERS, PHONE_NUMBERS } from '../testing/phone-examples';
import { isPhoneNumber, sniffImageType } from './profile-rules';

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === 'string' ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe('sniffImageType', () => {
  it('knows PNG, JPEG and GIF by their first bytes', () => {
    expect(sniffImageType(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0))).toBe('image/png');
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffImageType(bytes('GIF89a'))).toBe('image/gif');
    expect(sniffImageType(bytes('GIF87a'))).toBe('image/gif');
  });

  it('refuses text, PDFs and near misses whatever the file is called', () => {
    expect(sniffImageType(bytes('this is not an image at all'))).toBeNull();
    expect(sniffImageType(bytes('%PDF-1.7'))).toBeNull();
    expect(sniffImageType(bytes('GIF88a'))).toBeNull();
    expect(sniffImageType(bytes(0x89, 'PNG'))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});

describe("isPhoneNumber (the database's private.is_phone_number, held to the same examples)", () => {
  it.each(PHONE_NUMBERS)('takes %j', (phone) => expect(isPhoneNumber(phone)).toBe(true));
  it.each(NOT_PHONE_NUMBERS)('refuses %j', (text) => expect(isPhoneNumber(text)).toBe(false));
});
