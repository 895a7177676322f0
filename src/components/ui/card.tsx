import type { HTMLAttributes } from 'react';
import { cn } from './cn';

/** A white panel with a border and soft shadow: the surface most screens group content on. */
export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('rounded-2xl border border-slate-200 bg-white p-6 shadow-sm', className)} {...rest} />;
}
