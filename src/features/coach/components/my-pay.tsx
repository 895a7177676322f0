import { useState } from 'react';
import { TextField } from '@/components/ui/field';
import { PayStatement } from '@/components/pay/pay-statement';
import { useMyPayStatement } from '@/lib/pay/pay-api';
import { currentMonth } from '@/lib/pay/pay-lines';

/** /coach: the coach's own pay statement for a month (the database shows nobody else's). */
export function MyPay({ name }: { name: string }) {
  const [month, setMonth] = useState(() => currentMonth());
  const statement = useMyPayStatement(month);
  return (
    <section aria-labelledby="my-pay-heading" className="mt-10 rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id="my-pay-heading" className="text-xl font-bold text-slate-900">
        Your pay
      </h2>
      <div className="my-4 max-w-xs">
        <TextField label="Month" type="month" value={month} onChange={(e) => setMonth(e.target.value)} />
      </div>
      <PayStatement who={name} month={month} lines={statement.data} pending={statement.isPending} failed={statement.isError} />
    </section>
  );
}
