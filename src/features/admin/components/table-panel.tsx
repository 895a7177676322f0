import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

/** The white surface a table and its footer sit on, edge to edge (a Card without its padding). */
export function TablePanel({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm', className)}>{children}</div>;
}
