import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { toast } from '@/lib/toast';
import { BookingRefused } from '../api/book-class';
import { guestFormSchema, useAddGuest, type GuestFormValues } from '../api/guest-mutations';

type Props = {
  /** The member's own confirmed booking the guest comes with. */
  bookingId: string;
  /** "Breakfast Club on Mon, Mar 4 at 6:00 AM": said in the dialog's description. */
  classLabel: string;
  onClose: () => void;
};

/** The database's refusals that are about a field; the rest are said above the buttons. */
const FIELD_OF: Record<string, keyof GuestFormValues> = {
  invalid_guest: 'name',
  guest_is_you: 'email',
  guest_already_booked: 'email',
  guest_visits_used: 'email',
};

/**
 * Add a guest (issue 26): name and email, one guest pass. The form checks what it can; the
 * database decides (a pass valid that day, room in the class, 3 visits a year) and its words are
 * shown on the field they are about.
 */
function AddGuestForm({ bookingId, onClose }: Omit<Props, 'classLabel'>) {
  const add = useAddGuest();
  const { register, handleSubmit, setError, formState } = useForm<GuestFormValues>({
    resolver: zodResolver(guestFormSchema),
    defaultValues: { name: '', email: '' },
  });
  const submit = handleSubmit(async (values) => {
    try {
      await add.mutateAsync({ bookingId, ...values });
      toast.success(`${values.name.trim()} is booked as your guest: we have emailed them the details.`);
      onClose();
    } catch (error) {
      const refused = error instanceof BookingRefused ? error.error : null;
      const message = refused?.message ?? 'Could not add your guest, please try again.';
      const field = refused?.hint ? FIELD_OF[refused.hint] : undefined;
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
      {errors.root && (
        <p role="alert" className="text-sm text-red-700">
          {errors.root.message}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose}>
          Back
        </Button>
        <Button type="submit" loading={add.isPending}>
          Add guest (uses 1 guest pass)
        </Button>
      </div>
    </form>
  );
}

export function AddGuestDialog({ bookingId, classLabel, onClose }: Props) {
  return (
    <Modal open onClose={onClose} title="Add a guest" description={`Bring a guest to ${classLabel} with one of your guest passes.`}>
      <AddGuestForm bookingId={bookingId} onClose={onClose} />
    </Modal>
  );
}
