import { env } from '@/lib/env';

/**
 * Where the home page's images come from: the public storage bucket in production
 * (VITE_PUBLIC_IMAGES_URL), else the images this repo ships in public/images. Both hold the same
 * file names, each in two widths (`<name>-<width>.webp`).
 */
export function resolveImageUrl(base: string, file: string): string {
  const root = base.trim().replace(/\/+$/, '');
  return root ? `${root}/${file}` : `/images/${file}`;
}

export type ResponsiveImage = { src: string; srcSet: string; width: number; height: number };

/** The `src`/`srcSet` of an image shipped at `widths` (largest first), with its intrinsic size. */
export function responsiveImage(name: string, widths: readonly number[], aspect: number, base = env.publicImagesUrl): ResponsiveImage {
  const largest = Math.max(...widths);
  const url = (w: number) => resolveImageUrl(base, `${name}-${w}.webp`);
  return {
    src: url(largest),
    srcSet: widths.map((w) => `${url(w)} ${w}w`).join(', '),
    width: largest,
    height: Math.round(largest / aspect),
  };
}

export const HERO_IMAGE = { name: 'hero', widths: [1600, 800], aspect: 16 / 9 } as const;
export const GALLERY_WIDTHS = [960, 480] as const;
export const GALLERY_ASPECT = 4 / 3;
