import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from './cn';

export type TabItem<T extends string> = { id: T; label: ReactNode; panel: ReactNode };

type TabsProps<T extends string> = {
  label: string;
  tabs: readonly TabItem<T>[];
  value: T;
  onChange: (id: T) => void;
  className?: string;
  /**
   * Share the full width equally and let a label wrap, so every tab stays visible on a phone
   * (a scrolling strip hides the last tab at 375 px).
   */
  fill?: boolean;
};

/**
 * Controlled tabs following the WAI-ARIA tabs pattern: one tab stop, arrow keys / Home / End move
 * and select, only the selected panel is rendered.
 */
export function Tabs<T extends string>({ label, tabs, value, onChange, className, fill = false }: TabsProps<T>) {
  const baseId = useId();
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const selected = tabs.find((t) => t.id === value) ?? tabs[0];

  function onKeyDown(event: KeyboardEvent) {
    const index = tabs.findIndex((t) => t.id === selected?.id);
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onChange(tab.id);
    refs.current.get(tab.id)?.focus();
  }

  return (
    <div className={className}>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className={cn(
          'gap-1 rounded-xl bg-slate-100 p-1',
          fill ? 'grid w-full auto-cols-fr grid-flow-col sm:inline-grid sm:w-auto' : 'inline-flex max-w-full overflow-x-auto',
        )}
      >
        {tabs.map((tab) => {
          const isSelected = tab.id === selected?.id;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                if (el) refs.current.set(tab.id, el);
                else refs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.id}`}
              aria-selected={isSelected}
              aria-controls={`${baseId}-panel-${tab.id}`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onChange(tab.id)}
              className={cn(
                'min-h-11 rounded-lg text-sm font-semibold transition-colors',
                fill ? 'px-2 leading-tight sm:px-4' : 'whitespace-nowrap px-4',
                isSelected ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
              )}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {selected && (
        <div role="tabpanel" id={`${baseId}-panel-${selected.id}`} aria-labelledby={`${baseId}-tab-${selected.id}`} className="mt-8">
          {selected.panel}
        </div>
      )}
    </div>
  );
}
