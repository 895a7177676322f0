import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';

/** A labelled figure; the label names the number for screen readers too (a description list). */
export function StatCard({ label, value, icon }: { label: string; value: ReactNode; icon?: ReactNode }) {
  return (
    <Card className="p-4 sm:p-5">
      <dl className="flex items-center justify-between gap-3">
        <div>
          <dt className="text-sm font-medium text-slate-600">{label}</dt>
          <dd className="mt-1 text-3xl font-bold tracking-tight text-slate-900">{value}</dd>
        </div>
        {icon && <div className="hidden rounded-full bg-brand-50 p-3 text-brand-700 sm:block">{icon}</div>}
      </dl>
    </Card>
  );
}
