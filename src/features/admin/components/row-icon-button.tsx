import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { useCardTableStyles } from './table-styles';

const TONES = {
  neutral: 'font-medium text-slate-700 hover:bg-slate-100',
  info: 'font-medium text-blue-700 hover:bg-blue-50',
  danger: 'font-medium text-red-700 hover:bg-red-50',
  brand: 'font-semibold text-brand-700 hover:bg-brand-50',
} as const;

type Props = { label: string; tone: keyof typeof TONES; onClick: () => void } & (
  | { /** Shown alone in the table, with `word` on a card. */ icon: ReactNode; word: string; children?: never }
  | { icon?: never; word?: never; /** A worded button: the same at every width. */ children: ReactNode }
);

/**
 * A CardTable row's action, named for its row by `label` at every width. An icon button shows its
 * `word` beside the icon on a card (where there is room and no column says "Actions"), and is
 * outlined there, as every row button is.
 */
export function RowIconButton({ label, tone, onClick, icon, word, children }: Props) {
  const styles = useCardTableStyles();
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className={cn(
        'inline-flex min-h-10 min-w-10 items-center justify-center gap-1.5 rounded-lg text-sm',
        styles.button,
        icon ? styles.iconButton : 'px-3',
        TONES[tone],
      )}
    >
      {icon}
      {icon ? <span className={styles.word}>{word}</span> : children}
    </button>
  );
}
