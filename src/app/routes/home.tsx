import { Hero } from '@/features/marketing/components/hero';
import { ValueCards } from '@/features/marketing/components/value-cards';
import { ExploreCards } from '@/features/marketing/components/explore-cards';
import { PhotoGallery } from '@/features/marketing/components/photo-gallery';
import { ClosingCta } from '@/features/marketing/components/closing-cta';

/** The home page of spec sections 1 and 2. */
export function HomeRoute() {
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
