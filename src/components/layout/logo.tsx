import { Link } from 'react-router-dom';
import { STUDIO } from '@/config/studio';
import { cn } from '@/components/ui/cn';

/** The studio's mark and name, linking home (spec section 2: "logo linking home"). */
export function Logo({ tone = 'dark', className }: { tone?: 'dark' | 'light'; className?: string }) {
  return (
    <Link to="/" className={cn('inline-flex items-center gap-2.5 rounded-md font-extrabold tracking-tight', className)}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8 shrink-0">
        <rect width="32" height="32" rx="8" fill="#ea580c" />
        <path d="M10 8h13l-1.6 4H14.5v3.2h6.3l-1.6 4h-4.7V24H10z" fill="#fff" />
      </svg>
      <span className={cn('text-lg', tone === 'light' ? 'text-white' : 'text-slate-900')}>{STUDIO.name}</span>
    </Link>
  );
}
