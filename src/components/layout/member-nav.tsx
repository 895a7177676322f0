import { NavLink } from 'react-router-dom';
import { prefetchProps } from '@/lib/route-prefetch';
import { LogOut, Menu, X } from 'lucide-react';
import { cn } from '@/components/ui/cn';
import { initials } from '@/lib/initials';
import { Logo } from './logo';
import { MEMBER_NAV_LINKS } from './nav-links';
import { useMenuToggle } from './use-menu-toggle';

type MemberNavProps = {
  name: string | null | undefined;
  email: string | null | undefined;
  photoUrl?: string | null;
  onLogout: () => void;
  loggingOut?: boolean;
};

const desktopLink = ({ isActive }: { isActive: boolean }) =>
  cn(
    'whitespace-nowrap rounded-md px-2.5 py-2 text-sm font-semibold transition-colors',
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-950',
  );

const mobileLink = ({ isActive }: { isActive: boolean }) =>
  cn('block rounded-lg px-3 py-3 text-base font-semibold', isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-800 hover:bg-slate-100');

/** The member's avatar: their photo when they have one, else initials (spec section 2). */
export function Avatar({ name, email, photoUrl }: Pick<MemberNavProps, 'name' | 'email' | 'photoUrl'>) {
  const who = name?.trim() || email || 'member';
  return (
    <span
      role="img"
      aria-label={`Signed in as ${who}`}
      className="inline-flex h-9 w-9 shrink-0 items-center justify-center overflow-hidden rounded-full bg-slate-900 text-sm font-bold text-white ring-2 ring-brand-500/60"
    >
      {photoUrl ? <img src={photoUrl} alt="" width={36} height={36} className="h-full w-full object-cover" /> : initials(name, email)}
    </span>
  );
}

/** The signed-in top navigation (spec section 2). Below the lg breakpoint the links move into a menu. */
export function MemberNav({ name, email, photoUrl, onLogout, loggingOut = false }: MemberNavProps) {
  const menu = useMenuToggle();
  const logout = (extra = '') => (
    <button
      type="button"
      onClick={onLogout}
      disabled={loggingOut}
      className={cn(
        'inline-flex items-center gap-2 rounded-md font-semibold text-slate-700 hover:bg-slate-100 hover:text-slate-950 disabled:opacity-60',
        extra,
      )}
    >
      <LogOut aria-hidden="true" className="h-4 w-4" />
      Log Out
    </button>
  );
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Member" className="hidden items-center gap-0.5 lg:flex">
          {MEMBER_NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} end={link.end} className={desktopLink} {...prefetchProps(link.to)}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          <Avatar name={name} email={email} photoUrl={photoUrl} />
          <div className="hidden lg:block">{logout('px-2.5 py-2 text-sm')}</div>
          <button
            {...menu.buttonProps}
            aria-label="Menu"
            className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-800 hover:bg-slate-100 lg:hidden"
          >
            {menu.open ? <X aria-hidden="true" className="h-6 w-6" /> : <Menu aria-hidden="true" className="h-6 w-6" />}
          </button>
        </div>
      </div>
      <nav {...menu.panelProps} aria-label="Member menu" className="border-t border-slate-200 bg-white px-4 py-3 shadow-lg lg:hidden">
        <ul className="space-y-1">
          {MEMBER_NAV_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.end} className={mobileLink} {...prefetchProps(link.to)}>
                {link.label}
              </NavLink>
            </li>
          ))}
          <li>{logout('w-full px-3 py-3 text-base')}</li>
        </ul>
      </nav>
    </header>
  );
}
