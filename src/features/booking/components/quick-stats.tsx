import { Card } from '@/components/ui/card';

export function QuickStats({ stats }: { stats: { label: string; value: string | number }[] }) {
  return (
    <Card>
      <h2 className="text-lg font-semibold">Quick Stats</h2>
      <dl className="mt-4 grid grid-cols-2 gap-3">
        {stats.map((s) => (
          <div key={s.label} className="rounded-xl bg-slate-50 p-3">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{s.label}</dt>
            <dd className="mt-1 text-xl font-bold text-slate-900">{s.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
