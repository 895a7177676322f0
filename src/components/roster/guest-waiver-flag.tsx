/**
 * A guest's waiver on a roster or register: "Waiver not signed" until the guest signs
 * the current waiver from their email's link; "Waiver signed" after. The admin register, the
 * admin roster and the coach's roster use it.
 */
export function GuestWaiverFlag({ signed }: { signed: boolean }) {
  return signed ? (
    <span className="text-xs text-green-800">Waiver signed</span>
  ) : (
    <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-800">Waiver not signed</span>
  );
}
