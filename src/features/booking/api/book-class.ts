import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { toast } from '@/lib/toast';
import { useNavigate } from 'react-router-dom';
import { BOOKING_TYPES, type BookingType } from '@/config/booking-types';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth/auth-context';
import { checkedText } from '@/lib/checked-text';
import { compositeRow, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';
import { BOOKING_MESSAGES, bookedMessage, bookingErrorView, type RpcError } from '../lib/booking-messages';
import { FunctionError } from '@/lib/functions-client';
import { startClassCheckout } from './start-class-checkout';
import { useDocumentsGate } from './use-documents-gate';

/**
 * A booking request (`book_class`, docs/data-contract.md). `bookingType` null lets the server
 * decide (the Book Now buttons); the form sends the member's choice. Checked by hand rather than
 * with zod: this module is on every member's first screen (a Book Now button), and zod's core is
 * 14 KB gzip of the member's 130 KB budget; the form brings zod with itself.
 */
export type BookClassInput = { classId: string; bookingType: BookingType | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Class ids are uuids; anything else cannot name a class and is never sent. */
export const isClassId = (value: string): boolean => UUID.test(value);

/** How a booking is paid for (null: the server decides; 'credit': book_with_credit, a One-to-One). */
export const isBookingType = (value: unknown): value is BookingType => (BOOKING_TYPES as readonly unknown[]).includes(value);

/** The input as sent, or an error for one that no class or booking type could match. */
export function checkedBookClassInput(input: BookClassInput): BookClassInput {
  if (!isClassId(input.classId)) throw new Error('Invalid class id');
  if (input.bookingType !== null && !isBookingType(input.bookingType)) throw new Error('Invalid booking type');
  return input;
}

/** `booking_result` (03_bookings.sql): these fields are always set. */
type ResultFilled = 'status' | 'class_id' | 'needs_payment' | 'trial_used';
export type BookClassResult = Omit<CompositeRow<'booking_result', ResultFilled>, 'status'> & {
  status: 'booked' | 'payment_required';
};

/** The server refused (its hint and message), or the card checkout could not be started. */
export class BookingRefused extends Error {
  constructor(readonly error: RpcError) {
    super(error.message);
  }
}
/** The server asked for a card payment but no checkout could be started. */
class CheckoutFailed extends Error {}

/** One request: the server decides the booking type, payment and tier change, or refuses. */
export async function bookClass(input: BookClassInput): Promise<BookClassResult> {
  const { classId, bookingType } = checkedBookClassInput(input);
  const supabase = await loadSupabase();
  const { data, error } =
    bookingType === 'credit'
      ? await supabase.rpc('book_with_credit', { p_class_id: classId })
      : await supabase.rpc('book_class', { p_class_id: classId, p_booking_type: bookingType });
  if (error) throw new BookingRefused(error);
  const row = compositeRow<'booking_result', ResultFilled>(data);
  // numeric arrives as a JSON number; Number() also reads it if a proxy ever sends it as text.
  return {
    ...row,
    status: checkedText<BookClassResult['status']>(row.status),
    price_payg: row.price_payg === null ? null : Number(row.price_payg),
  };
}

/** The class checkout; the hold's refusal for unsigned documents becomes the booking's refusal. */
async function startCheckoutOrRefuse(classId: string, bookingType: BookClassInput['bookingType']): Promise<boolean> {
  try {
    return await startClassCheckout(classId, bookingType);
  } catch (error) {
    if (error instanceof FunctionError)
      throw new BookingRefused({ code: 'P0001', hint: error.code, message: error.serverMessage ?? error.message, details: '' });
    throw error;
  }
}

/** A booking (or a payment hold) changes the schedule's facts, the member's bookings, their waitlist places and plan usage. */
export function invalidateAfterBooking(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [queryKeys.classes.all, queryKeys.bookings.all, queryKeys.waitlist.all, queryKeys.planUsage.all, queryKeys.credits.all].map(
      (queryKey) => queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

/**
 * Every Book button and the booking form: one `book_class` request, then the UI says what the
 * server decided (booked, trial used, payment needed → the class checkout, or the refusal), one
 * toast per outcome. A second press while one request is in flight sends nothing.
 * `announce: false` leaves the success message to the caller (the form shows it in its panel).
 */
export function useBookClass(options: { failureMessage?: string; announce?: boolean } = {}) {
  const { announce = true, failureMessage = BOOKING_MESSAGES.failedToBook } = options;
  const { refreshMember } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toDocuments = useDocumentsGate();
  const inFlight = useRef(false);

  const mutation = useMutation({
    mutationFn: async (input: BookClassInput) => {
      const result = await bookClass(input);
      // No booking yet: the payments function holds the spot and the provider takes the money.
      if (result.status === 'payment_required' && !(await startCheckoutOrRefuse(input.classId, input.bookingType)))
        throw new CheckoutFailed();
      return result;
    },
    onSuccess: (result) => {
      if (result.status !== 'booked') return;
      if (announce) toast.success(bookedMessage(result), { id: BOOKING_OUTCOME_TOAST });
      // A trial booking changes the tier or has_used_trial: reload the member row everyone shows.
      if (result.booking_type === 'trial') void refreshMember().catch(() => undefined);
    },
    onError: (error) => {
      const view =
        error instanceof BookingRefused
          ? bookingErrorView(error.error, failureMessage)
          : { message: error instanceof CheckoutFailed ? BOOKING_MESSAGES.bookingFailed : failureMessage, signInAgain: false };
      // Nothing was booked: sign first, then come back here (decision 0021). Not an error: /agreements says why.
      if (view.signDocuments) {
        toDocuments(view.message);
        return;
      }
      toast.error(view.message, { id: BOOKING_OUTCOME_TOAST });
      if (view.signInAgain) void navigate(paths.signIn.path);
    },
    // A checkout that was started made a hold; a refusal may mean the facts on screen were stale.
    onSettled: () => invalidateAfterBooking(queryClient),
  });

  // The same function across renders, so the cards that receive it can skip re-rendering.
  const { mutateAsync } = mutation;
  const book = useCallback(
    async (classId: string, bookingType: BookClassInput['bookingType'] = null): Promise<BookClassResult | null> => {
      if (inFlight.current) return null;
      inFlight.current = true;
      try {
        return await mutateAsync({ classId, bookingType });
      } catch {
        return null;
      } finally {
        inFlight.current = false;
      }
    },
    [mutateAsync],
  );

  const pendingClassId = mutation.isPending ? (mutation.variables?.classId ?? null) : null;
  return { book, pendingClassId, isBooking: mutation.isPending };
}

/** One toast for one booking's outcome: a later one replaces it instead of piling up. */
export const BOOKING_OUTCOME_TOAST = 'booking-outcome';
