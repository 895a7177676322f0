import { paths } from '@/config/paths';
import { Link } from 'react-router-dom';
import { ArrowRight } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button-styles';
import { TRIAL_OFFER } from '@/config/trial';
import { HERO_IMAGE, responsiveImage } from '../lib/images';

const hero = responsiveImage(HERO_IMAGE.name, HERO_IMAGE.widths, HERO_IMAGE.aspect);

export function Hero() {
  return (
    <section className="relative isolate overflow-hidden bg-stone-950 text-white">
      <img
        src={hero.src}
        srcSet={hero.srcSet}
        sizes="100vw"
        width={hero.width}
        height={hero.height}
        alt=""
        fetchPriority="high"
        decoding="async"
        className="absolute inset-0 -z-10 h-full w-full object-cover object-[70%_center] opacity-90"
      />
      <div aria-hidden="true" className="absolute inset-0 -z-10 bg-gradient-to-r from-stone-950 via-stone-950/80 to-stone-950/10" />
      <div className="mx-auto flex min-h-[34rem] max-w-6xl flex-col justify-center px-4 py-20 sm:px-6 md:min-h-[40rem]">
        <p className="text-sm font-semibold uppercase tracking-[0.2em] text-brand-300">Community fitness studio · East London</p>
        <h1 className="mt-4 max-w-2xl text-4xl font-extrabold leading-[1.05] tracking-tight sm:text-6xl">
          Mind and body transformation starts here
        </h1>
        <p className="mt-6 max-w-xl text-lg leading-relaxed text-stone-200">
          Small-group classes and personal training in a community hall, with coaches who train the way you think as well as the way you
          move.
        </p>
        <div className="mt-8 flex flex-col gap-6 sm:flex-row sm:items-center">
          <Link to={paths.freeTrial} className={buttonClasses({ size: 'lg', className: 'w-full sm:w-auto' })}>
            {TRIAL_OFFER.cta}
            <ArrowRight aria-hidden="true" className="h-5 w-5" />
          </Link>
          <p className="flex items-baseline gap-2">
            <span className="text-4xl font-extrabold text-brand-400">100+</span>
            <span className="text-base font-semibold text-stone-200">transformations</span>
          </p>
        </div>
      </div>
    </section>
  );
}
