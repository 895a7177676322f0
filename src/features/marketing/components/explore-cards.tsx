import { paths } from '@/config/paths';
import { Link } from 'react-router-dom';
import { ArrowRight, CalendarDays, Crown } from 'lucide-react';

const CARDS = [
  {
    title: 'Classes',
    text: 'Breakfast Club every weekday morning, Kids Club on Mondays and premium sessions through the week. See what is on and book your spot.',
    to: paths.schedule,
    action: 'View Schedule',
    Icon: CalendarDays,
    tone: 'bg-slate-900 text-white',
    iconTone: 'bg-white/10 text-brand-300',
    textTone: 'text-slate-300',
  },
  {
    title: 'Membership',
    text: 'From pay-as-you-go to Platinum Premium, plus student and Hackney worker prices and personal training packages.',
    to: paths.membership,
    action: 'Explore Memberships',
    Icon: Crown,
    tone: 'bg-brand-700 text-white',
    iconTone: 'bg-white/15 text-white',
    textTone: 'text-brand-50',
  },
] as const;

export function ExploreCards() {
  return (
    <section aria-label="Classes and membership" className="mx-auto max-w-6xl px-4 pb-20 sm:px-6">
      <ul className="grid gap-5 md:grid-cols-2">
        {CARDS.map(({ title, text, to, action, Icon, tone, iconTone, textTone }) => (
          <li key={title} className={`flex flex-col rounded-3xl p-8 shadow-lg ${tone}`}>
            <span className={`inline-flex h-12 w-12 items-center justify-center rounded-xl ${iconTone}`}>
              <Icon aria-hidden="true" className="h-6 w-6" />
            </span>
            <h2 className="mt-6 text-2xl font-extrabold tracking-tight">{title}</h2>
            <p className={`mt-3 flex-1 leading-relaxed ${textTone}`}>{text}</p>
            <Link
              to={to}
              className="mt-8 inline-flex min-h-11 items-center gap-2 self-start rounded-lg bg-white px-5 font-semibold text-slate-900 shadow-sm hover:bg-brand-50"
            >
              {action}
              <ArrowRight aria-hidden="true" className="h-4 w-4" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
