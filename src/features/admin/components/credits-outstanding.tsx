import { CREDIT_COUNT_WORDS, CREDIT_SOURCE_LABELS } from '@/config/credits';
import { formatPounds } from '@/config/plans';
import { Card } from '@/components/ui/card';
import { useErrorToast } from '@/hooks/use-error-toast';
import { useCreditsOutstanding } from '../api/get-credits-outstanding';

const LOAD_FAILED = 'Failed to load credits outstanding';

/**
 * Analytics' credits outstanding: sessions and passes sold or granted and not yet used,
 * what the paid ones are worth (owed in service), and how many expire within a week.
 */
export function CreditsOutstanding() {
  const query = useCreditsOutstanding();
  useErrorToast(query.isError, LOAD_FAILED);
  const rows = (query.data ?? []).filter((r) => r.kind && r.credits);
  const total = rows.reduce((sum, r) => sum + (r.value ?? 0), 0);
  return (
    <section aria-labelledby="credits-outstanding-heading" className="mt-8">
      <h2 id="credits-outstanding-heading" className="mb-4 text-xl font-bold text-slate-900">
        Credits outstanding
      </h2>
      <Card>
        {query.isError && (
          <p role="alert" className="text-red-700">
            {LOAD_FAILED}
          </p>
        )}
        {query.isSuccess && rows.length === 0 && <p className="text-slate-600">No sessions or passes are waiting to be used.</p>}
        {rows.length > 0 && (
          <>
            <p className="mb-4 text-slate-700">
              Sold and not yet delivered: <strong className="tabular-nums">{formatPounds(total)}</strong>
            </p>
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Still to use
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      From
                    </th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">
                      Value
                    </th>
                    <th scope="col" className="py-2 text-right font-medium">
                      Expire within a week
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.map((r) => (
                    <tr key={`${r.kind}-${r.source}`}>
                      <td className="py-2 pr-4 font-medium text-slate-900">{CREDIT_COUNT_WORDS[r.kind!](r.credits!)}</td>
                      <td className="py-2 pr-4 text-slate-700">{CREDIT_SOURCE_LABELS[r.source ?? ''] ?? r.source}</td>
                      <td className="py-2 pr-4 text-right tabular-nums">{r.value ? formatPounds(r.value) : '—'}</td>
                      <td className="py-2 text-right tabular-nums">{r.expiring_soon ?? 0}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </Card>
    </section>
  );
}
