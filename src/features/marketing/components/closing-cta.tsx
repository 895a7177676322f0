import { paths } from '@/config/paths';
import { Link } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button-styles';
import { TRIAL_OFFER } from '@/config/trial';

export function ClosingCta() {
  return (
    <section aria-labelledby="closing-heading" className="relative isolate overflow-hidden bg-slate-950 py-20 text-white">
      <div aria-hidden="true" className="absolute -right-24 -top-24 -z-10 h-96 w-96 rounded-full bg-brand-600/30 blur-3xl" />
      <div aria-hidden="true" className="absolute -bottom-32 -left-24 -z-10 h-96 w-96 rounded-full bg-brand-500/10 blur-3xl" />
      <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
        <h2 id="closing-heading" className="text-4xl font-extrabold tracking-tight sm:text-5xl">
          Stronger. Sharper. Finer.
        </h2>
        <p className="mx-auto mt-5 max-w-xl text-lg leading-relaxed text-slate-300">
          {TRIAL_OFFER.sentence} Train with a community that shows up for each other.
        </p>
        <Link to={paths.freeTrial} className={buttonClasses({ size: 'lg', className: 'mt-8' })}>
          Book your free class
        </Link>
      </div>
    </section>
  );
}
