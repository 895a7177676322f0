import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { PanelSection } from './panel-section';
import { SettingsForm } from '@/components/settings/settings-form';
import { attendanceErrorText, attendancePolicySchema, useSaveAttendancePolicy } from '../api/attendance';
import { policyAt, useAttendancePolicies } from '@/lib/attendance-policy';

const text = (v: number | null, money = false) => (v === null ? '' : money ? v.toFixed(2) : String(v));

/**
 * The studio's attendance policy (decision 0080), set by admins: off until a rule is filled in.
 * A change applies to bookings made from now; bookings already made keep the policy they were
 * made under (what the member was shown).
 */
export function AttendancePolicyPanel() {
  const policies = useAttendancePolicies();
  const save = useSaveAttendancePolicy();
  const current = policies.data ? policyAt(policies.data, new Date()) : null;
  return (
    <PanelSection
      id="attendance-policy-heading"
      title="Attendance policy"
      intro="Off while every field is empty. Fees are charged to the member's saved card (or recorded as owed) by the hourly job; members see the policy before booking and when cancelling. Changes apply to bookings made from now."
    >
      {policies.isPending ? (
        <Spinner label="Loading the attendance policy" />
      ) : (
        <SettingsForm
          label="Attendance policy"
          schema={attendancePolicySchema}
          defaultValues={{ lateCancelFee: '', noShowFee: '', strikeLimit: '', blockDays: '' }}
          values={
            current
              ? {
                  lateCancelFee: text(current.lateCancelFee, true),
                  noShowFee: text(current.noShowFee, true),
                  strikeLimit: text(current.strikeLimit),
                  blockDays: text(current.blockDays),
                }
              : undefined
          }
          save={(values) => save.mutateAsync(values)}
          submitLabel="Save attendance policy"
          savedText="Attendance policy saved"
          errorText={(error) => attendanceErrorText(error, 'Could not save the attendance policy. Please try again.')}
          className="p-4"
        >
          {({ field }) => (
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <TextField
                label="Late cancellation fee (£)"
                inputMode="decimal"
                optional
                hint="Inside the class's late-cancel window."
                {...field('lateCancelFee')}
              />
              <TextField label="No-show fee (£)" inputMode="decimal" optional {...field('noShowFee')} />
              <TextField
                label="Strikes within 30 days"
                inputMode="numeric"
                optional
                hint="Late cancellations and no-shows."
                {...field('strikeLimit')}
              />
              <TextField label="Days booking is blocked" inputMode="numeric" optional {...field('blockDays')} />
            </div>
          )}
        </SettingsForm>
      )}
    </PanelSection>
  );
}
