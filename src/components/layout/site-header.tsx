import { Link, NavLink } from 'react-router-dom';
import { Menu, X } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button-styles';
import { cn } from '@/components/ui/cn';
import { Logo } from './logo';
import { PUBLIC_NAV_LINKS } from './nav-links';
import { useMenuToggle } from './use-menu-toggle';

const desktopLink = ({ isActive }: { isActive: boolean }) =>
  cn('rounded-md px-3 py-2 text-sm font-semibold transition-colors', isActive ? 'text-brand-700' : 'text-slate-700 hover:text-slate-950');

const mobileLink = ({ isActive }: { isActive: boolean }) =>
  cn('block rounded-lg px-3 py-3 text-base font-semibold', isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-800 hover:bg-slate-100');

/**
 * The public header (spec section 2): logo home; Home, Classes, Membership; a highlighted Sign In.
 * Below the md breakpoint the links collapse into a menu behind a toggle; Sign In stays visible.
 * `authPending` hides Sign In while the stored session is still being read, so a signed-in
 * member does not see it flash before their own navigation appears.
 */
export function SiteHeader({ authPending = false }: { authPending?: boolean }) {
  const menu = useMenuToggle();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {PUBLIC_NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} end={link.end} className={desktopLink}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          {!authPending && (
            <Link to="/signin" className={buttonClasses({ size: 'sm', className: 'px-4' })}>
              Sign In
            </Link>
          )}
          <button
            {...menu.buttonProps}
            aria-label="Menu"
            className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-800 hover:bg-slate-100 md:hidden"
          >
            {menu.open ? <X aria-hidden="true" className="h-6 w-6" /> : <Menu aria-hidden="true" className="h-6 w-6" />}
          </button>
        </div>
      </div>
      <nav {...menu.panelProps} aria-label="Main menu" className="border-t border-slate-200 bg-white px-4 py-3 shadow-lg md:hidden">
        <ul className="space-y-1">
          {PUBLIC_NAV_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.end} className={mobileLink}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
