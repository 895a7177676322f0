import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import type { ClassRow } from '@/lib/supabase';
import type { ClassListState } from '../hooks/use-class-list';
import { LOAD_FAILED } from '../hooks/use-class-list';

type Props = {
  state: ClassListState | { status: 'ready'; classes: ClassRow[] };
  /** Shown instead of the grid when there are no classes. */
  empty: ReactNode;
  onRetry: () => void;
  renderCard: (cls: ClassRow) => ReactNode;
  label: string;
};

/** The grid of class cards with its loading, error and empty states. */
export function ClassList({ state, empty, onRetry, renderCard, label }: Props) {
  if (state.status === 'loading') return <Spinner label="Loading classes" />;
  if (state.status === 'error') {
    return (
      <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-center">
        <p className="font-semibold text-red-800">{LOAD_FAILED}</p>
        <Button variant="outline" className="mt-4" onClick={onRetry}>
          Try again
        </Button>
      </div>
    );
  }
  if (state.classes.length === 0) return <>{empty}</>;
  return (
    <ul aria-label={label} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {state.classes.map((cls) => (
        <li key={cls.id}>{renderCard(cls)}</li>
      ))}
    </ul>
  );
}

/** An empty state panel. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
      <p className="text-lg font-semibold text-slate-900">{title}</p>
      {children && <div className="mt-2 text-slate-600">{children}</div>}
    </div>
  );
}
