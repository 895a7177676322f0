import { Link } from 'react-router-dom';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { PlanUsageMeter } from './plan-usage-meter';

/** The dashboard's "Plan Usage This Month" (its bar: yellow at 75%, red at 90%). */
export function PlanUsageCard({ planLabel }: { planLabel: string }) {
  return (
    <Card>
      <div className="mb-4 flex items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">Plan Usage This Month</h2>
          <p className="text-sm text-slate-600">{planLabel}</p>
        </div>
        <Link to={paths.membership} className="text-sm font-semibold text-brand-700 hover:underline">
          Manage
        </Link>
      </div>
      <PlanUsageMeter variant="dashboard" />
    </Card>
  );
}
