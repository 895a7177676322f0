/** /membership's banner. */
export function MembershipHero() {
  return (
    <section className="bg-slate-950 text-white">
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <p className="text-sm font-semibold uppercase tracking-[0.2em] text-brand-300">Memberships &amp; training</p>
        <h1 className="mt-3 text-4xl font-extrabold tracking-tight sm:text-5xl">Membership</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-300">
          Monthly memberships for regular training, and personal training packages when you want one-to-one coaching.
        </p>
      </div>
    </section>
  );
}
