import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { coverError } from '@/lib/cover-request';
import { formatClassDate, formatClassTime } from '@/lib/studio-time';
import { toast } from '@/lib/toast';
import { useAdminCoverRequests, useApproveCover, useCoverAutoApprove, useSetCoverAutoApprove } from '../api/cover';

/**
 * Cover (decision 0087): coaches ask for cover and offer to cover on /coach; here an admin
 * approves an offer (or lets the studio approve every offer at once). The class then has the new
 * coach, and everyone booked or waitlisted gets the studio's class-change message.
 */
export function CoverPanel() {
  const requests = useAdminCoverRequests();
  const approve = useApproveCover();
  const auto = useCoverAutoApprove();
  const setAuto = useSetCoverAutoApprove();
  return (
    <section aria-labelledby="cover-heading" className="mt-10">
      <h2 id="cover-heading" className="mb-1 text-xl font-bold text-slate-900">
        Cover
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        Coaches ask for cover and offer to cover on their page. Approving gives the class to the coach who offered; its members are told the
        new coach. To swap a coach yourself, edit the class.
      </p>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={auto.data ?? false}
          disabled={auto.isPending || setAuto.isPending}
          onChange={(e) =>
            setAuto.mutate(e.target.checked, {
              onSuccess: (on) => toast.success(on ? 'Offers to cover are approved at once' : 'Offers to cover wait for an admin'),
              onError: () => toast.error('Could not save the setting. Please try again.'),
            })
          }
        />
        Approve offers to cover at once (no admin step)
      </label>
      {requests.isPending && <Spinner label="Loading cover requests" />}
      {requests.isError && <p role="alert">Could not load the cover requests.</p>}
      {requests.data?.length === 0 && <p className="mt-3 text-sm text-slate-600">No cover requests under way.</p>}
      {requests.data && requests.data.length > 0 && (
        <ul aria-label="Cover requests" className="mt-3 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {requests.data.map((r) => {
            const when = `${formatClassDate(r.start_time)} ${formatClassTime(r.start_time)}`;
            return (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <div>
                  <p className="font-semibold text-slate-900">
                    {when} {r.class_name}
                  </p>
                  <p className="text-sm text-slate-600">
                    {r.requested_by_name} asked for cover
                    {r.accepted_by_name ? `; ${r.accepted_by_name} offered` : '; no offer yet'}
                    {r.note ? `: “${r.note}”` : ''}
                  </p>
                </div>
                {r.status === 'accepted' && (
                  <Button
                    size="sm"
                    aria-label={`Approve ${r.accepted_by_name ?? 'the offer'} covering ${r.class_name}, ${when}`}
                    loading={approve.isPending && approve.variables === r.id}
                    onClick={() =>
                      approve.mutate(r.id, {
                        onSuccess: () => toast.success(`${r.class_name} is now ${r.accepted_by_name ?? 'the new coach'}’s class`),
                        onError: (error) => toast.error(coverError(error)),
                      })
                    }
                  >
                    Approve
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
