import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { TextField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { FunctionError } from '@/lib/functions-client';
import { balanceCoversText } from '@/lib/payments/balance-words';
import { formatClassDate } from '@/lib/studio-time';
import { toast } from '@/lib/toast';
import { BookingRefused } from '../api/book-class';
import { useBalanceCover } from '../api/get-my-balance';
import type { GuestOption } from '../api/get-guest-options';
import { guestFormSchema, useAddGuest, usePayForGuest, type GuestFormValues } from '../api/guest-mutations';
import { sessionPrice } from '../lib/personal-training';

type Props = {
  /** The member's own confirmed booking the guest comes with. */
  bookingId: string;
  /** "Breakfast Club on Mon 4 Mar at 6:00 AM": said in the dialog's description. */
  classLabel: string;
  /** What the guest's place can use: the member's guest pass, or the class's pay-as-you-go price. */
  option: GuestOption;
  onClose: () => void;
};

type PayWith = 'pass' | 'card';

/** The database's refusals that are about a field; the rest are said above the buttons. */
const FIELD_OF: Record<string, keyof GuestFormValues> = {
  invalid_guest: 'name',
  guest_is_you: 'email',
  guest_already_booked: 'email',
  guest_visits_used: 'email',
};

/** The refusal's hint and words, from the database (a pass) or the checkout function (paying). */
function refusalOf(error: unknown): { hint: string | null; message: string | null } {
  if (error instanceof BookingRefused) return { hint: error.error.hint || null, message: error.error.message };
  if (error instanceof FunctionError) return { hint: error.code, message: error.serverMessage };
  return { hint: null, message: null };
}

/**
 * Add a guest: name and email, and how their place is paid: one of the member's
 * guest passes, or the class's pay-as-you-go price on the hosted checkout (the guest's place is
 * held while the member pays). The form says which before the member confirms; the database
 * decides (a pass valid that day, room in the class, 3 visits a year) and its words are shown on
 * the field they are about.
 */
function AddGuestForm({ bookingId, option, onClose }: Omit<Props, 'classLabel'>) {
  const add = useAddGuest();
  const pay = usePayForGuest();
  const [payWith, setPayWith] = useState<PayWith>(option.passExpiresAt ? 'pass' : 'card');
  const { register, handleSubmit, setError, formState } = useForm<GuestFormValues>({
    resolver: zodResolver(guestFormSchema),
    defaultValues: { name: '', email: '' },
  });
  const price = option.price === null ? null : sessionPrice(option.price);
  const choices: { value: PayWith; label: string; detail: string }[] = [
    ...(option.passExpiresAt
      ? [{ value: 'pass' as const, label: 'Use a guest pass', detail: `Expires ${formatClassDate(option.passExpiresAt)}` }]
      : []),
    ...(price ? [{ value: 'card' as const, label: `Pay ${price}`, detail: "The class's pay-as-you-go price, by card" }] : []),
  ];
  const paying = payWith === 'card' && price !== null;
  // The member's balance pays first (decision 0108): said instead of "by card" when it pays any.
  const cover = useBalanceCover(option.price ?? 0, paying);
  const balanceText = paying && cover.data ? balanceCoversText(cover.data) : null;

  const submit = handleSubmit(async (values) => {
    try {
      if (paying) {
        await pay.mutateAsync({ bookingId, ...values });
        return;
      }
      await add.mutateAsync({ bookingId, ...values });
      toast.success(`${values.name.trim()} is booked as your guest: we have emailed them the details.`);
      onClose();
    } catch (error) {
      const refused = refusalOf(error);
      const message = refused.message ?? 'Could not add your guest, please try again.';
      const field = refused.hint ? FIELD_OF[refused.hint] : undefined;
      setError(field ?? 'root', { message }, { shouldFocus: Boolean(field) });
    }
  });
  const { errors } = formState;
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <TextField label="Guest's name" autoComplete="off" required {...register('name')} error={errors.name?.message} />
      <TextField
        label="Guest's email"
        type="email"
        autoComplete="off"
        required
        {...register('email')}
        error={errors.email?.message}
        hint="We email them the class and a link to cancel."
      />
      {choices.length > 1 ? (
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Their place</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {choices.map((choice) => (
              <label
                key={choice.value}
                className={cn(
                  'flex min-h-11 cursor-pointer flex-col rounded-lg border border-slate-300 px-3 py-2 text-sm',
                  'has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50',
                )}
              >
                <span className="flex items-center gap-2 font-medium">
                  <input
                    type="radio"
                    name="pay-with"
                    value={choice.value}
                    checked={payWith === choice.value}
                    onChange={() => setPayWith(choice.value)}
                    className="accent-brand-600"
                  />
                  {choice.label}
                </span>
                <span className="text-xs text-slate-600">{choice.detail}</span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
        {paying
          ? balanceText
            ? `${balanceText} Their place is held while you pay.`
            : `You pay ${price} by card on the next page; their place is held while you pay.`
          : `Uses 1 guest pass${option.passExpiresAt ? `, expires ${formatClassDate(option.passExpiresAt)}` : ''}.`}
      </p>
      {errors.root && (
        <p role="alert" className="text-sm text-red-700">
          {errors.root.message}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose}>
          Back
        </Button>
        <Button type="submit" loading={add.isPending || pay.isPending}>
          {paying ? `Pay ${price} and add guest` : 'Add guest (uses 1 guest pass)'}
        </Button>
      </div>
    </form>
  );
}

export function AddGuestDialog({ bookingId, classLabel, option, onClose }: Props) {
  const how =
    option.passExpiresAt && option.price !== null
      ? 'with a guest pass or by paying for their place'
      : option.passExpiresAt
        ? 'with one of your guest passes'
        : `for ${sessionPrice(option.price ?? 0)}`;
  return (
    <Modal open onClose={onClose} title="Add a guest" description={`Bring a guest to ${classLabel} ${how}.`}>
      <AddGuestForm bookingId={bookingId} option={option} onClose={onClose} />
    </Modal>
  );
}
