import { GALLERY_ASPECT, GALLERY_WIDTHS, responsiveImage } from '../lib/images';
import { GALLERY } from '../lib/gallery-photos';

/**
 * Hover or keyboard focus zooms a tile and reveals its caption (spec section 1); on touch
 * screens, which cannot hover, captions are always shown. Tiles are focusable for that reason.
 */
export function PhotoGallery() {
  return (
    <section aria-labelledby="gallery-heading" className="bg-slate-50 py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <p className="text-sm font-semibold uppercase tracking-[0.2em] text-brand-700">Inside the studio</p>
        <h2 id="gallery-heading" className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
          Life at Finer Fitness
        </h2>
        <ul className="mt-10 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {GALLERY.map(({ file, caption, alt }) => {
            const image = responsiveImage(`gallery/${file}`, GALLERY_WIDTHS, GALLERY_ASPECT);
            return (
              <li key={file}>
                <figure
                  tabIndex={0}
                  className="group relative aspect-[4/3] overflow-hidden rounded-2xl bg-slate-200 shadow-sm focus-visible:outline-offset-4"
                >
                  <img
                    src={image.src}
                    srcSet={image.srcSet}
                    sizes="(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw"
                    width={image.width}
                    height={image.height}
                    alt={alt}
                    loading="lazy"
                    decoding="async"
                    className="h-full w-full object-cover transition-transform duration-500 ease-out group-hover:scale-110 group-focus-visible:scale-110 motion-reduce:transition-none"
                  />
                  <figcaption className="absolute inset-x-0 bottom-0 translate-y-2 bg-gradient-to-t from-black/80 via-black/40 to-transparent px-5 pb-4 pt-12 text-lg font-bold text-white opacity-0 transition duration-300 group-hover:translate-y-0 group-hover:opacity-100 group-focus-visible:translate-y-0 group-focus-visible:opacity-100 pointer-coarse:translate-y-0 pointer-coarse:opacity-100 motion-reduce:transition-none">
                    {caption}
                  </figcaption>
                </figure>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
