import { Link } from 'react-router-dom';
import { CalendarPlus, CalendarRange, Crown, DoorOpen, Dumbbell } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { recommendedUpgrades } from '@/lib/rules/membership-tier';

/**
 * Spec section 2: Book a Class, View My Schedule, Upgrade Membership; Personal training and Check in.
 * A member with nothing to upgrade to (Premium, spec section 6) gets "My Membership" instead of an
 * upgrade they cannot make.
 */
const ACTIONS = [
  { label: 'Book a Class', to: paths.mySchedule, Icon: CalendarPlus },
  { label: 'View My Schedule', to: paths.myClasses, Icon: CalendarRange },
  { label: 'Personal training', to: paths.personalTraining, Icon: Dumbbell },
  { label: 'Upgrade Membership', to: paths.membership, Icon: Crown },
  // Self check-in with the day's door code.
  { label: 'Check in at the studio', to: paths.checkIn, Icon: DoorOpen },
] as const;

export function QuickActions({ tier }: { tier: string | null | undefined }) {
  const canUpgrade = recommendedUpgrades(tier).length > 0;
  const actions = ACTIONS.map((a) => (a.to === paths.membership && !canUpgrade ? { ...a, label: 'My Membership' } : a));
  return (
    <Card>
      <h2 className="text-lg font-semibold">Quick Actions</h2>
      <ul className="mt-4 space-y-2">
        {actions.map(({ label, to, Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex min-h-11 items-center gap-3 rounded-lg border border-slate-200 px-3 py-2 font-medium text-slate-800 hover:border-brand-300 hover:bg-brand-50"
            >
              <Icon aria-hidden="true" className="h-5 w-5 text-brand-600" />
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}
