import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { FunctionError } from '@/lib/functions-client';
import { CHECKOUT_MESSAGES } from '@/lib/payments/start-plan-checkout';
import { toast } from '@/lib/toast';
import { useBookFamily, usePayForFamily } from '../api/book-family';
import type { ScheduleClass } from '../api/get-class-schedule';
import { useDocumentsGate } from '../api/use-documents-gate';
import { DOCUMENTS_REQUIRED } from '../lib/booking-messages';
import { familyTotal } from '../lib/family-total';
import { BalancePays } from './balance-pays';
import { listOfNames } from '../lib/list-of-names';

/** A child as the chooser needs them (the family feature's my_dependants row). */
export type ChildChoice = { id: string; name: string; missing_documents: string[] };

type Props = { cls: ScheduleClass; childChoices: ChildChoice[] };

/**
 * Who is coming (family accounts): the member and any of their children, booked in one
 * step, all places or none. The total is said before booking; places paid by card are paid in one
 * checkout. The server decides every rule (age range, adults-only, documents, places left, the
 * price) and says why it refuses.
 */
export function FamilyBookingForm({ cls, childChoices }: Props) {
  const navigate = useNavigate();
  const alreadyBooked = cls.my_booking_id !== null;
  const [self, setSelf] = useState(!alreadyBooked);
  const [chosen, setChosen] = useState<string[]>([]);
  const book = useBookFamily();
  const pay = usePayForFamily();
  const total = familyTotal(cls, self, chosen.length);
  const places = chosen.length + (self ? 1 : 0);
  const busy = book.isPending || pay.isPending;
  const toDocuments = useDocumentsGate();
  const showRefusal = (error: Error) => {
    const hint = 'hint' in error && typeof error.hint === 'string' ? error.hint : null;
    // The parent's own documents are not signed: not an error, /agreements says why (decision 0021).
    if (hint === DOCUMENTS_REQUIRED) toDocuments(error.message);
    else toast.error(hint ? error.message : 'Could not book. Please try again.');
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (busy || places === 0) return;
    const choice = { classId: cls.id, includeSelf: self, childIds: chosen };
    // The browser leaves for the checkout; on a refusal the form stays, with the reason.
    if (total.amount > 0) {
      pay.mutate(choice, {
        onError: (error) => {
          if (error instanceof FunctionError && error.code === DOCUMENTS_REQUIRED && error.serverMessage) toDocuments(error.serverMessage);
          else toast.error(error instanceof FunctionError && error.serverMessage ? error.serverMessage : CHECKOUT_MESSAGES.failed);
        },
      });
      return;
    }
    book.mutate(choice, {
      onSuccess: () => {
        // Every person booked, by name, as the confirmation email says them.
        const names = [...(self ? ['you'] : []), ...childChoices.filter((c) => chosen.includes(c.id)).map((c) => c.name)];
        toast.success(`Booked on ${cls.name}: ${listOfNames(names)}`);
        void navigate(paths.myBookings);
      },
      onError: showRefusal,
    });
  };

  return (
    <form aria-label="Book for your family" onSubmit={submit} className="space-y-4">
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Who is coming?</legend>
        <div className="mt-2 space-y-2">
          <label className="flex min-h-11 items-center gap-3 rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium">
            <input
              type="checkbox"
              checked={self}
              disabled={alreadyBooked}
              onChange={(e) => setSelf(e.target.checked)}
              className="h-5 w-5 accent-brand-600"
            />
            {alreadyBooked ? 'Me (already booked)' : 'Me'}
          </label>
          {childChoices.map((child) => {
            const unsigned = child.missing_documents.length > 0;
            return (
              <div key={child.id}>
                <label className="flex min-h-11 items-center gap-3 rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium">
                  <input
                    type="checkbox"
                    checked={chosen.includes(child.id)}
                    disabled={unsigned}
                    onChange={(e) => setChosen((c) => (e.target.checked ? [...c, child.id] : c.filter((id) => id !== child.id)))}
                    className="h-5 w-5 accent-brand-600"
                  />
                  {child.name}
                </label>
                {unsigned && (
                  <p className="mt-1 px-1 text-xs text-slate-600">
                    Sign the waiver and health questions for {child.name} first:{' '}
                    <Link to={paths.family} className="font-medium text-brand-700 underline">
                      Family
                    </Link>
                  </p>
                )}
              </div>
            );
          })}
        </div>
      </fieldset>
      <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-800" aria-live="polite">
        {places} {places === 1 ? 'place' : 'places'} · Total to pay: £{total.amount.toFixed(2)}
        {places > 0 && total.note && ` (${total.note})`}
      </p>
      {total.amount > 0 && <BalancePays price={total.amount} />}
      {total.amount > 0 && (
        <p className="text-sm text-slate-600">Every place is held while you pay, and booked together once the payment goes through.</p>
      )}
      <Button type="submit" size="lg" className="w-full" loading={busy} disabled={places === 0 || busy}>
        {places === 0
          ? 'Choose who is coming'
          : total.amount > 0
            ? `Pay £${total.amount.toFixed(2)} for ${places} ${places === 1 ? 'place' : 'places'}`
            : `Book ${places} ${places === 1 ? 'place' : 'places'}`}
      </Button>
    </form>
  );
}
