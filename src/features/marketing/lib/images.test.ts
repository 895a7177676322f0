import { describe, expect, it } from 'vitest';
import { resolveImageUrl, responsiveImage } from './images';

describe('resolveImageUrl', () => {
  it('uses the repo images when no bucket is configured', () => {
    expect(resolveImageUrl('', 'hero-1600.webp')).toBe('/images/hero-1600.webp');
  });
  it('uses the storage bucket when configured, with or without a trailing slash', () => {
    const bucket = 'https://abc.supabase.co/storage/v1/object/public/images';
    expect(resolveImageUrl(bucket, 'gallery/a-960.webp')).toBe(`${bucket}/gallery/a-960.webp`);
    expect(resolveImageUrl(`${bucket}/`, 'gallery/a-960.webp')).toBe(`${bucket}/gallery/a-960.webp`);
  });
});

describe('responsiveImage', () => {
  it('lists every width in srcset and gives the intrinsic size of the largest', () => {
    expect(responsiveImage('gallery/weight-training', [960, 480], 4 / 3, '')).toEqual({
      src: '/images/gallery/weight-training-960.webp',
      srcSet: '/images/gallery/weight-training-960.webp 960w, /images/gallery/weight-training-480.webp 480w',
      width: 960,
      height: 720,
    });
  });
});
