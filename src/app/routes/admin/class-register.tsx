import { useParams } from 'react-router-dom';
import { GuestWaiverFlag } from '@/components/roster/guest-waiver-flag';
import { HealthFlag } from '@/components/roster/health-flag';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useClassRegister } from '@/features/admin/api/get-class-register';
import { londonToday } from '@/lib/studio-calendar';
import { ageOn } from '@/lib/age';
import { EmptyState } from '@/features/admin/components/empty-state';
import { PageHeading } from '@/features/admin/components/page-heading';

/**
 * /admin/register/<classId> (issue 27): the class register to print for the coach: each booked
 * member with phone, emergency contact, age, and the PAR-Q questions they answered yes. A child
 * (family accounts) shows their parent (whose phone and emergency contact these are), who may
 * collect them and their medical notes. A guest a member brought shows after their host, with
 * whether they signed the waiver from their email's link.
 */
export function AdminClassRegisterRoute() {
  const { classId = '' } = useParams();
  const register = useClassRegister(classId);
  const today = londonToday();

  return (
    <>
      <PageHeading
        title="Class register"
        subtitle="Emergency contacts and health flags for the coach. Health answers are special-category data: keep the printout with you and shred it after class."
        action={
          <Button variant="outline" onClick={() => window.print()} className="print:hidden">
            Print
          </Button>
        }
      />
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
              <tr key={r.guest_place_id ?? `${r.booking_id}-${r.dependant_id ?? 'self'}`} className="align-top">
                <td className="border-b border-slate-200 p-2">
                  <div className="font-semibold">{r.name ?? r.email}</div>
                  {r.dependant_id && (
                    <dl className="mt-1 space-y-0.5 text-xs text-slate-700">
                      <div>
                        <dt className="inline font-semibold">Child of: </dt>
                        <dd className="inline">{r.parent_name ?? r.email}</dd>
                      </div>
                      <div>
                        <dt className="inline font-semibold">Collected by: </dt>
                        <dd className="inline">{r.collected_by ?? 'The parent'}</dd>
                      </div>
                      <div>
                        <dt className="inline font-semibold">Medical notes: </dt>
                        <dd className="inline">{r.medical_notes ?? 'None'}</dd>
                      </div>
                    </dl>
                  )}
                  {r.guest_place_id ? (
                    <div className="mt-1 space-y-1 text-xs text-slate-700">
                      <div>Guest of {r.guest_of}</div>
                      <GuestWaiverFlag signed={r.documents_current} />
                    </div>
                  ) : (
                    !r.documents_current && <div className="text-xs font-semibold text-red-700">Has not signed the current documents</div>
                  )}
                </td>
                <td className="border-b border-slate-200 p-2">{r.phone ?? '—'}</td>
                <td className="border-b border-slate-200 p-2">
                  {r.emergency_contact_name || r.emergency_contact_phone
                    ? `${r.emergency_contact_name ?? ''} ${r.emergency_contact_phone ?? ''}`.trim()
                    : '—'}
                </td>
                <td className="border-b border-slate-200 p-2">{r.date_of_birth ? ageOn(r.date_of_birth, today) : '—'}</td>
                <td className="border-b border-slate-200 p-2">
                  {r.guest_place_id ? '—' : <HealthFlag flag={r.health_flag} yes={r.health_yes} details={r.health_details} />}
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
