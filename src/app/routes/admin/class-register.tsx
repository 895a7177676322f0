import { useParams } from 'react-router-dom';
import { HealthFlag } from '@/components/roster/health-flag';
import { PlaceDetails } from '@/components/roster/place-details';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useClass } from '@/features/admin/api/get-class';
import { useClassPlaces } from '@/features/admin/api/get-class-places';
import { formatClassDateTime } from '@/lib/studio-time';
import { londonToday } from '@/lib/studio-calendar';
import { ageOn } from '@/lib/age';
import { EmptyState } from '@/features/admin/components/empty-state';
import { PageHeading } from '@/features/admin/components/page-heading';

/**
 * /admin/register/<classId>: the class register to print for the coach, headed with the class, its
 * date and time and its coach. Every place (decision 0035): a member with phone, emergency contact,
 * age and the PAR-Q questions they answered yes; a child with their own age and answers, their
 * parent as the contact, who collects them and their medical notes; a guest after their host, with
 * whether they signed the waiver from their email's link.
 */
export function AdminClassRegisterRoute() {
  const { classId = '' } = useParams();
  const register = useClassPlaces(classId);
  const cls = useClass(classId);
  const today = londonToday();

  return (
    <>
      <PageHeading
        title={cls.data ? `Class register: ${cls.data.name}` : 'Class register'}
        subtitle="Emergency contacts and health flags for the coach. Health answers are special-category data: keep the printout with you and shred it after class."
        action={
          <Button variant="outline" onClick={() => window.print()} className="print:hidden">
            Print
          </Button>
        }
      />
      {cls.data && (
        <p className="-mt-2 mb-4 text-base font-semibold text-slate-800">
          {formatClassDateTime(cls.data.start_time)} · {cls.data.trainer}
        </p>
      )}
      {register.isPending ? (
        <Spinner label="Loading the register" />
      ) : register.isError ? (
        <EmptyState title="Could not load the register" body="Reload the page to try again." />
      ) : register.data.length === 0 ? (
        <EmptyState title="No bookings for this class" body="Members who book will appear here." />
      ) : (
        <table className="w-full border-collapse text-sm">
          <thead>
            <tr className="text-left">
              <th className="border-b border-slate-300 p-2">Member</th>
              <th className="border-b border-slate-300 p-2">Phone</th>
              <th className="border-b border-slate-300 p-2">Emergency contact</th>
              <th className="border-b border-slate-300 p-2">Age</th>
              <th className="border-b border-slate-300 p-2">Health</th>
              <th className="border-b border-slate-300 p-2">Here</th>
            </tr>
          </thead>
          <tbody>
            {register.data.map((r) => (
              <tr key={r.place_id} className="align-top">
                <td className="border-b border-slate-200 p-2">
                  <div className="font-semibold">
                    {r.name}
                    {r.pending && <span className="font-normal text-slate-600"> (payment pending)</span>}
                  </div>
                  <PlaceDetails place={r} />
                </td>
                <td className="border-b border-slate-200 p-2">{r.phone ?? '—'}</td>
                <td className="border-b border-slate-200 p-2">
                  {r.emergency_contact_name || r.emergency_contact_phone
                    ? `${r.emergency_contact_name ?? ''} ${r.emergency_contact_phone ?? ''}`.trim()
                    : '—'}
                </td>
                <td className="border-b border-slate-200 p-2">{r.date_of_birth ? ageOn(r.date_of_birth, today) : '—'}</td>
                <td className="border-b border-slate-200 p-2">
                  {r.kind === 'guest' ? '—' : <HealthFlag flag={r.health_flag} yes={r.health_yes} details={r.health_details} />}
                </td>
                <td className="border-b border-slate-200 p-2">
                  <span aria-hidden="true" className="inline-block h-5 w-5 border border-slate-400" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
