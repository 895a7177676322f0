import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { pauseRulesSchema, usePauseRules, useSavePauseRules, pauseErrorText, type PauseRules } from '@/lib/membership-pause';
import { PanelSection } from './panel-section';
import { SettingsForm } from '@/components/settings/settings-form';

const formValues = (r: PauseRules) => ({
  membersMayPause: r.membersMayPause,
  minDays: r.minDays,
  maxDays: r.maxDays,
  perYear: r.perYear,
  noticeDays: r.noticeDays,
  holdFee: r.holdFee === null ? '' : r.holdFee.toFixed(2),
});

/** The studio's pause rules (decision 0050), set by admins: what members may do themselves. */
export function PauseRulesPanel() {
  const rules = usePauseRules();
  const save = useSavePauseRules();
  return (
    <PanelSection
      id="pause-rules-heading"
      title="Membership pauses"
      intro="What members may do themselves from their membership page. You can pause any member from the list above."
    >
      {rules.isPending ? (
        <Spinner label="Loading the pause rules" />
      ) : (
        <SettingsForm
          label="Pause rules"
          schema={pauseRulesSchema}
          values={rules.data ? formValues(rules.data) : undefined}
          save={(values) => save.mutateAsync(values)}
          submitLabel="Save pause rules"
          savedText="Pause rules saved"
          errorText={(error) => pauseErrorText(error, 'Could not save the pause rules. Please try again.')}
          className="p-4"
        >
          {({ register, field }) => (
            <>
              <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
                <input type="checkbox" {...register('membersMayPause')} />
                Members may pause their own membership
              </label>
              <div className="grid gap-4 sm:grid-cols-3">
                <TextField label="Shortest pause (days)" type="number" inputMode="numeric" {...field('minDays')} />
                <TextField label="Longest pause (days)" type="number" inputMode="numeric" {...field('maxDays')} />
                <TextField label="Pauses a year" type="number" inputMode="numeric" {...field('perYear')} />
                <TextField label="Notice (days)" type="number" inputMode="numeric" {...field('noticeDays')} />
                <TextField
                  label="Monthly hold fee (£)"
                  inputMode="decimal"
                  optional
                  hint="Empty: no fee while paused."
                  {...field('holdFee')}
                />
              </div>
            </>
          )}
        </SettingsForm>
      )}
    </PanelSection>
  );
}
