import { Card } from '@/components/ui/card';
import { tierView } from '@/lib/rules/membership-tier';
import { formatMemberSince } from '@/lib/studio-calendar';
import type { Member } from '@/lib/supabase';

export function AccountSummary({ member, bookingsCount }: { member: Member; bookingsCount: number }) {
  const rows = [
    { label: 'Membership', value: tierView(member.membership_tier).label },
    { label: 'Member Since', value: formatMemberSince(member.created_at) },
    { label: 'Total Bookings', value: String(bookingsCount) },
  ];
  return (
    <Card>
      <h2 className="text-lg font-semibold">Account Summary</h2>
      <dl className="mt-4 divide-y divide-slate-100">
        {rows.map((r) => (
          <div key={r.label} className="flex justify-between gap-3 py-2">
            <dt className="text-slate-600">{r.label}</dt>
            <dd className="font-semibold text-slate-900">{r.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
