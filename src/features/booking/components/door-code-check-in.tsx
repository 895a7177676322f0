import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { formatClassTime } from '@/lib/studio-time';
import { doorCodeSchema, useCheckInWithCode, type CheckInResult, type DoorCodeInput } from '../api/check-in';

/** The server's refusals a member can act on, shown as the server words them. */
const SHOWN_REFUSALS = new Set(['check_in_wrong_code', 'too_many_attempts', 'check_in_no_booking']);
const CHECK_IN_FAILED = 'Could not check you in. Please try again or ask at the desk.';

/** A member enters the day's door code to check in to the class they booked. */
export function DoorCodeCheckIn() {
  const checkIn = useCheckInWithCode();
  const [done, setDone] = useState<CheckInResult | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<DoorCodeInput>({
    resolver: zodResolver(doorCodeSchema),
    defaultValues: { code: '' },
  });

  const submit = handleSubmit(async (values) => {
    setRefusal(null);
    try {
      setDone(await checkIn.mutateAsync(values));
    } catch (error) {
      const e = error as { hint?: string; message?: string };
      setRefusal(e.hint && SHOWN_REFUSALS.has(e.hint) && e.message ? e.message : CHECK_IN_FAILED);
    }
  });

  if (done) {
    return (
      <Card>
        <p role="status" className="text-lg font-semibold text-green-800">
          You&apos;re checked in to {done.class_name} at {done.start_time ? formatClassTime(done.start_time) : ''}. Enjoy the class!
        </p>
      </Card>
    );
  }
  return (
    <Card>
      <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <TextField
          label="Door code"
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          required
          {...register('code')}
          error={formState.errors.code?.message}
          hint="The 4-digit code shown at the studio door today."
        />
        {refusal && (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
            {refusal}
          </p>
        )}
        <Button type="submit" loading={checkIn.isPending}>
          Check in
        </Button>
      </form>
    </Card>
  );
}
