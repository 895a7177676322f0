/** A figure, or undefined while the summary is on its way (shown as a dash, so the tiles hold their place). */
type Figure = number | undefined;
type Props = { totalClasses: Figure; availableSpots: Figure; instructors: Figure; showing: number };

/** The four summary tiles of /my-schedule. */
export function SummaryTiles({ totalClasses, availableSpots, instructors, showing }: Props) {
  const tiles = [
    { label: 'Total Classes', value: totalClasses },
    { label: 'Available Spots', value: availableSpots },
    { label: 'Instructors', value: instructors },
    { label: 'Showing', value: showing },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {tiles.map((tile) => (
        <div key={tile.label} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm font-medium text-slate-500">{tile.label}</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900">{tile.value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}
