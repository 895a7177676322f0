import { Brain, CalendarCheck, Target, TrendingUp, type LucideIcon } from 'lucide-react';

const VALUES: Array<{ title: string; text: string; Icon: LucideIcon }> = [
  {
    title: 'Train with Purpose',
    text: 'Every session is planned: strength, conditioning and mobility programmed so each class moves you forward.',
    Icon: Target,
  },
  {
    title: 'Mentality Mentors',
    text: 'Our coaches work on confidence, focus and habits as much as reps, so the change lasts outside the hall.',
    Icon: Brain,
  },
  {
    title: 'Priority Access',
    text: 'Premium members book first: premium classes open to them before anyone else, and early booking is part of the plan.',
    Icon: CalendarCheck,
  },
  {
    title: 'Real Results',
    text: 'More than 100 members have changed how they look, feel and think with us. Your progress is next.',
    Icon: TrendingUp,
  },
];

export function ValueCards() {
  return (
    <section aria-labelledby="values-heading" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-[0.2em] text-brand-700">Why Finer Fitness</p>
      <h2 id="values-heading" className="mt-2 max-w-2xl text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
        Coaching for the body and the mind
      </h2>
      <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {VALUES.map(({ title, text, Icon }) => (
          <li key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span className="inline-flex h-11 w-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
              <Icon aria-hidden="true" className="h-6 w-6" />
            </span>
            <h3 className="mt-5 text-lg font-bold text-slate-900">{title}</h3>
            <p className="mt-2 text-sm leading-relaxed text-slate-600">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
