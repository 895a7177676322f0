import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { dataRetentionFormSchema, useDataRetention, useSaveDataRetention } from '../api/data-retention';
import { RETENTION_ROWS } from '../lib/data-retention';
import { EmptyState } from './empty-state';
import { PanelSection } from './panel-section';
import { SettingsForm } from '@/components/settings/settings-form';

const SAVE_FAILED = 'Could not save the retention periods. Please try again.';

/**
 * Admin > Settings, "How long personal data is kept" (decision 0097): the data contract's table,
 * each kind of personal data with its purpose, lawful basis and period, and the two periods the
 * studio sets (guest waiver signatures, Contact Us messages), which the hourly retention job applies.
 */
export function DataRetentionPanel() {
  const periods = useDataRetention();
  const save = useSaveDataRetention();
  const current = periods.data;
  return (
    <PanelSection
      id="data-retention-heading"
      title="How long personal data is kept"
      intro="What the studio holds about members and guests, why, and for how long. The hourly jobs delete what is past its period."
    >
      <ul aria-label="Personal data kept" className="divide-y divide-slate-100">
        {RETENTION_ROWS.map((row) => (
          <li key={row.data} className="px-4 py-3 text-sm">
            <p className="font-semibold text-slate-900">{row.data}</p>
            <dl className="mt-1 grid gap-x-4 gap-y-0.5 text-slate-600 sm:grid-cols-[8rem_1fr]">
              <dt className="font-medium text-slate-700">Purpose</dt>
              <dd>{row.purpose}</dd>
              <dt className="font-medium text-slate-700">Lawful basis</dt>
              <dd>{row.basis}</dd>
              <dt className="font-medium text-slate-700">Kept</dt>
              <dd>
                {row.kept}
                {row.setting && current && <span className="font-medium text-slate-900">: now {current[row.setting]} days</span>}
              </dd>
            </dl>
          </li>
        ))}
      </ul>
      <div className="border-t border-slate-200 p-4">
        {periods.isPending && <Spinner label="Loading the retention periods" />}
        {periods.isError && <EmptyState title="Could not load the retention periods" body="Refresh the page to try again." />}
        {current && (
          <SettingsForm
            label="Retention periods"
            schema={dataRetentionFormSchema}
            values={current}
            save={(values) => save.mutateAsync(values)}
            submitLabel="Save retention periods"
            savedText="Retention periods saved"
            errorText={(error) =>
              (error as { hint?: string } | null)?.hint === 'invalid_retention'
                ? 'Each period must be between 30 and 3650 days'
                : SAVE_FAILED
            }
          >
            {({ field }) => (
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  label="Guest waiver signatures (days)"
                  type="number"
                  inputMode="numeric"
                  hint="From 30 to 3650. 1095 days is the UK limitation period for a personal-injury claim."
                  {...field('guest_signature_days')}
                />
                <TextField
                  label="Contact Us messages (days)"
                  type="number"
                  inputMode="numeric"
                  hint="From 30 to 3650."
                  {...field('contact_message_days')}
                />
              </div>
            )}
          </SettingsForm>
        )}
      </div>
    </PanelSection>
  );
}
