/**
 * A booked member's PAR-Q on a register: "Ask before class" with the questions answered
 * yes and the member's details, or "No flags". The admin register and the coach's roster use it.
 */
export function HealthFlag({ flag, yes, details }: { flag: boolean; yes: string[]; details: string | null | undefined }) {
  if (!flag) return <>No flags</>;
  return (
    <>
      <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">Ask before class</span>
      <ul className="mt-1 list-disc pl-4">
        {yes.map((q) => (
          <li key={q}>{q}</li>
        ))}
      </ul>
      {details && <p className="mt-1 italic">{details}</p>}
    </>
  );
}
