import type { ReactNode } from 'react';
import { Check } from 'lucide-react';
import { cn } from '@/components/ui/cn';
import { formatPence, type Plan } from '@/config/plans';

/** One plan of the catalogue: name, price, benefits and an action slot at the bottom. */
export function PlanCard({ plan, action }: { plan: Plan; action?: ReactNode }) {
  const dark = plan.highlighted;
  const headingId = `plan-${plan.slug}`;
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        'flex h-full flex-col rounded-3xl p-7 shadow-sm ring-1',
        dark ? 'bg-slate-900 text-white shadow-xl ring-brand-500' : 'bg-white text-slate-900 ring-slate-200',
      )}
    >
      <h3 id={headingId} className="text-xl font-bold tracking-tight">
        {plan.name}
      </h3>
      <p className={cn('mt-2 text-sm leading-relaxed', dark ? 'text-slate-300' : 'text-slate-600')}>{plan.summary}</p>
      <p className="mt-6 flex items-baseline gap-1.5">
        {plan.priceIsFrom && <span className={cn('text-sm font-semibold', dark ? 'text-slate-300' : 'text-slate-500')}>from</span>}
        <span className="text-4xl font-extrabold tracking-tight">{formatPence(plan.pricePence)}</span>
        {plan.interval && <span className={cn('text-sm font-semibold', dark ? 'text-slate-300' : 'text-slate-500')}>/{plan.interval}</span>}
      </p>
      <ul className="mt-6 flex-1 space-y-3 text-sm">
        {plan.benefits.map((benefit) => (
          <li key={benefit} className="flex gap-3">
            <Check aria-hidden="true" className={cn('mt-0.5 h-4 w-4 shrink-0', dark ? 'text-brand-400' : 'text-brand-600')} />
            <span>{benefit}</span>
          </li>
        ))}
      </ul>
      {action && <div className="mt-8">{action}</div>}
    </article>
  );
}
