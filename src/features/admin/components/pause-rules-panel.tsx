import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { pauseRulesSchema, usePauseRules, useSavePauseRules, type PauseRulesForm, pauseErrorText } from '@/lib/membership-pause';
import { toast } from '@/lib/toast';
import { PanelSection } from './panel-section';

/** The studio's pause rules (decision 0050), set by admins: what members may do themselves. */
export function PauseRulesPanel() {
  const rules = usePauseRules();
  const save = useSavePauseRules();
  const { register, handleSubmit, formState, reset } = useForm<PauseRulesForm>({ resolver: zodResolver(pauseRulesSchema) });
  const r = rules.data;
  useEffect(() => {
    if (r)
      reset({
        membersMayPause: r.membersMayPause,
        minDays: r.minDays,
        maxDays: r.maxDays,
        perYear: r.perYear,
        noticeDays: r.noticeDays,
        holdFee: r.holdFee === null ? '' : r.holdFee.toFixed(2),
      });
  }, [r, reset]);
  const submit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      toast.success('Pause rules saved');
    } catch (error) {
      toast.error(pauseErrorText(error, 'Could not save the pause rules. Please try again.'));
    }
  });
  const e = formState.errors;
  return (
    <PanelSection
      id="pause-rules-heading"
      title="Membership pauses"
      intro="What members may do themselves from their membership page. You can pause any member from the list above."
    >
      {rules.isPending ? (
        <Spinner label="Loading the pause rules" />
      ) : (
        <form noValidate aria-label="Pause rules" onSubmit={(ev) => void submit(ev)} className="space-y-4 p-4">
          <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
            <input type="checkbox" {...register('membersMayPause')} />
            Members may pause their own membership
          </label>
          <div className="grid gap-4 sm:grid-cols-3">
            <TextField
              label="Shortest pause (days)"
              type="number"
              inputMode="numeric"
              {...register('minDays')}
              error={e.minDays?.message}
            />
            <TextField label="Longest pause (days)" type="number" inputMode="numeric" {...register('maxDays')} error={e.maxDays?.message} />
            <TextField label="Pauses a year" type="number" inputMode="numeric" {...register('perYear')} error={e.perYear?.message} />
            <TextField label="Notice (days)" type="number" inputMode="numeric" {...register('noticeDays')} error={e.noticeDays?.message} />
            <TextField
              label="Monthly hold fee (£)"
              inputMode="decimal"
              optional
              hint="Empty: no fee while paused."
              {...register('holdFee')}
              error={e.holdFee?.message}
            />
          </div>
          <div className="flex justify-end">
            <Button type="submit" loading={save.isPending}>
              Save pause rules
            </Button>
          </div>
        </form>
      )}
    </PanelSection>
  );
}
