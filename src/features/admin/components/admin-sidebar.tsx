import { paths } from '@/config/paths';
import { useState } from 'react';
import { NavLink } from 'react-router-dom';
import { prefetchProps } from '@/lib/route-prefetch';
import {
  Activity,
  BarChart3,
  CalendarDays,
  CalendarPlus,
  ClipboardList,
  DoorOpen,
  Dumbbell,
  FileSignature,
  HeartHandshake,
  FileUp,
  Gift,
  History,
  LogOut,
  Menu,
  MessageSquare,
  Settings,
  Users,
  X,
} from 'lucide-react';
import { STUDIO } from '@/config/studio';
import { cn } from '@/components/ui/cn';

const LINKS = [
  { to: paths.admin.classes, label: 'Classes', icon: CalendarDays, end: true },
  { to: paths.admin.bookings, label: 'Bookings', icon: ClipboardList, end: false },
  { to: paths.admin.members, label: 'Members', icon: Users, end: false },
  { to: paths.admin.checkIn, label: 'Check-in', icon: DoorOpen, end: false },
  { to: paths.admin.trainers, label: 'Trainers', icon: Dumbbell, end: false },
  { to: paths.admin.contacts, label: 'To contact', icon: HeartHandshake, end: false },
  { to: paths.admin.documents, label: 'Documents', icon: FileSignature, end: false },
  { to: paths.admin.analytics, label: 'Analytics', icon: BarChart3, end: false },
  { to: paths.admin.messages, label: 'Messages', icon: MessageSquare, end: false },
  { to: paths.admin.import, label: 'Import', icon: FileUp, end: false },
  { to: paths.admin.generateClasses, label: 'Generate', icon: CalendarPlus, end: false },
  { to: paths.admin.giftVouchers, label: 'Gift vouchers', icon: Gift, end: false },
  { to: paths.admin.settings, label: 'Settings', icon: Settings, end: false },
  { to: paths.admin.activity, label: 'Activity', icon: History, end: false },
  { to: paths.admin.systemHealth, label: 'System health', icon: Activity, end: false },
] as const;

/** The admin shell's navigation: a fixed sidebar from md up, a menu behind a toggle on a phone. */
export function AdminSidebar({ onLogout, loggingOut }: { onLogout: () => void; loggingOut: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <aside className="overflow-y-auto bg-slate-900 text-slate-100 print:hidden md:sticky md:top-0 md:flex md:h-screen md:w-60 md:shrink-0 md:flex-col">
      <div className="flex items-center justify-between px-4 py-3 md:py-6">
        <div>
          <p className="text-lg font-bold">{STUDIO.name}</p>
          <p className="text-xs uppercase tracking-wide text-slate-400">Admin Portal</p>
        </div>
        <button
          type="button"
          className="inline-flex h-11 w-11 items-center justify-center rounded-lg hover:bg-slate-800 md:hidden"
          aria-expanded={open}
          aria-controls="admin-nav"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? <X aria-hidden="true" className="h-6 w-6" /> : <Menu aria-hidden="true" className="h-6 w-6" />}
        </button>
      </div>
      <div id="admin-nav" className={cn('flex-1 flex-col px-2 pb-4 md:flex', open ? 'flex' : 'hidden')}>
        <nav aria-label="Admin">
          <ul className="space-y-1">
            {LINKS.map(({ to, label, icon: Icon, end }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  end={end}
                  {...prefetchProps(to)}
                  onClick={() => setOpen(false)}
                  className={({ isActive }) =>
                    cn(
                      'flex min-h-11 items-center gap-3 rounded-lg px-3 text-sm font-medium',
                      isActive ? 'bg-brand-600 text-white' : 'text-slate-200 hover:bg-slate-800 hover:text-white',
                    )
                  }
                >
                  <Icon aria-hidden="true" className="h-5 w-5" />
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          onClick={onLogout}
          disabled={loggingOut}
          className="mt-4 flex min-h-11 items-center gap-3 rounded-lg px-3 text-sm font-medium text-slate-200 hover:bg-slate-800 hover:text-white disabled:opacity-60 md:mt-auto"
        >
          <LogOut aria-hidden="true" className="h-5 w-5" />
          Logout
        </button>
      </div>
    </aside>
  );
}
