import { Hero } from '../components/hero';
import { ValueCards } from '../components/value-cards';
import { ExploreCards } from '../components/explore-cards';
import { PhotoGallery } from '../components/photo-gallery';
import { ClosingCta } from '../components/closing-cta';

/** The home page of spec sections 1 and 2. */
export function HomePage() {
  return (
    <>
      <Hero />
      <ValueCards />
      <ExploreCards />
      <PhotoGallery />
      <ClosingCta />
    </>
  );
}
