import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Field, TextField } from '@/components/ui/field';
import { controlClasses } from '@/components/ui/field-styles';
import { PayStatement } from '@/components/pay/pay-statement';
import { useAdminPayStatement, useSetPayRate } from '@/lib/pay/pay-api';
import { currentMonth, PAY_BASES, PAY_BASIS_LABELS, type PayBasis } from '@/lib/pay/pay-lines';
import { londonToday } from '@/lib/studio-calendar';
import type { Trainer } from '../api/trainers';
import { CLASS_TYPES } from '../lib/class-form';
import { PanelSection } from './panel-section';

const money = (label: string, max: number) =>
  z
    .string()
    .trim()
    .refine((v) => /^\d+(\.\d{1,2})?$/.test(v), `${label}: pounds and pence, e.g. 25 or 2.50`)
    .refine((v) => Number(v) <= max, `${label}: at most £${max.toLocaleString('en-GB')}`);

const rateSchema = z
  .object({
    classType: z.enum(CLASS_TYPES),
    basis: z.enum(PAY_BASES),
    baseAmount: z.string(),
    perAttendee: z.string(),
    effectiveFrom: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the date the rate starts'),
  })
  .superRefine((v, ctx) => {
    if (v.basis !== 'per_attendee') {
      const r = money('Base', 10000).safeParse(v.baseAmount);
      if (!r.success) ctx.addIssue({ code: 'custom', path: ['baseAmount'], message: r.error.issues[0]!.message });
    }
    if (v.basis !== 'per_class') {
      const r = money('Per attendee', 1000).safeParse(v.perAttendee);
      if (!r.success) ctx.addIssue({ code: 'custom', path: ['perAttendee'], message: r.error.issues[0]!.message });
    }
  });
type RateForm = z.infer<typeof rateSchema>;

/** The database's refusals of a rate, in the admin's words (its own message says why). */
function rateRefusal(error: unknown): string {
  return (error as { message?: string } | null)?.message || 'The rate could not be saved. Please try again.';
}

/**
 * Coach pay (decision 0056): set a coach's rate for a class type from a date (this month or later, so
 * no earlier month changes), and read any coach's monthly statement, on screen and as a CSV.
 */
export function CoachPayPanel({ trainers }: { trainers: Trainer[] }) {
  const [trainerId, setTrainerId] = useState(trainers[0]?.id ?? '');
  const [month, setMonth] = useState(() => currentMonth());
  const statement = useAdminPayStatement(trainerId, month);
  const trainer = trainers.find((t) => t.id === trainerId);
  return (
    <PanelSection id="coach-pay" title="Coach pay" intro="Rates per coach and class type, and each coach's monthly statement.">
      <div className="space-y-6 p-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Coach">
            {(control) => (
              <select {...control} value={trainerId} onChange={(e) => setTrainerId(e.target.value)} className={controlClasses(false)}>
                {trainers.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextField label="Month" type="month" value={month} onChange={(e) => setMonth(e.target.value)} />
        </div>
        {trainer && <RateFormCard trainer={trainer} />}
        {trainer && (
          <PayStatement who={trainer.name} month={month} lines={statement.data} pending={statement.isPending} failed={statement.isError} />
        )}
      </div>
    </PanelSection>
  );
}

function RateFormCard({ trainer }: { trainer: Trainer }) {
  const save = useSetPayRate();
  const { register, handleSubmit, control, formState } = useForm<RateForm>({
    resolver: zodResolver(rateSchema),
    defaultValues: { classType: 'Group', basis: 'per_class', baseAmount: '', perAttendee: '', effectiveFrom: londonToday() },
  });
  const basis: PayBasis = useWatch({ control, name: 'basis' });
  const { errors } = formState;
  const submit = handleSubmit((v) =>
    save.mutate(
      {
        trainerId: trainer.id,
        classType: v.classType,
        basis: v.basis,
        baseAmount: v.basis === 'per_attendee' ? 0 : Number(v.baseAmount),
        perAttendee: v.basis === 'per_class' ? 0 : Number(v.perAttendee),
        effectiveFrom: v.effectiveFrom,
      },
      { onSuccess: () => toast.success(`Rate saved for ${trainer.name}`), onError: (error) => toast.error(rateRefusal(error)) },
    ),
  );
  return (
    <form
      noValidate
      aria-label={`Set a rate for ${trainer.name}`}
      onSubmit={(e) => void submit(e)}
      className="rounded-lg border border-slate-200 p-4"
    >
      <h3 className="mb-3 font-semibold text-slate-900">Set a rate for {trainer.name}</h3>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Class type">
          {(c) => (
            <select {...c} {...register('classType')} className={controlClasses(false)}>
              {CLASS_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Paid">
          {(c) => (
            <select {...c} {...register('basis')} className={controlClasses(false)}>
              {PAY_BASES.map((b) => (
                <option key={b} value={b}>
                  {PAY_BASIS_LABELS[b]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          label="Starts on"
          type="date"
          hint="This month or later: earlier months keep their rates."
          error={errors.effectiveFrom?.message}
          {...register('effectiveFrom')}
        />
        {basis !== 'per_attendee' && (
          <TextField label="Per class (£)" inputMode="decimal" error={errors.baseAmount?.message} {...register('baseAmount')} />
        )}
        {basis !== 'per_class' && (
          <TextField label="Per attendee (£)" inputMode="decimal" error={errors.perAttendee?.message} {...register('perAttendee')} />
        )}
      </div>
      <Button type="submit" className="mt-4" loading={save.isPending}>
        Save Rate
      </Button>
    </form>
  );
}
