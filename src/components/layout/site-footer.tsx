import { Link } from 'react-router-dom';
import { Mail, MapPin, MessageCircle } from 'lucide-react';
import { paths } from '@/config/paths';
import { MAILTO_URL, STUDIO, STUDIO_ADDRESS_LINES, WHATSAPP_URL } from '@/config/studio';
import { Logo } from './logo';
import { PUBLIC_NAV_LINKS } from './nav-links';
import { FacebookIcon, InstagramIcon, TikTokIcon } from './social-icons';

const SOCIAL_LINKS = [
  { href: STUDIO.social.facebook, label: `${STUDIO.name} on Facebook`, Icon: FacebookIcon, external: true },
  { href: STUDIO.social.instagram, label: `${STUDIO.name} on Instagram`, Icon: InstagramIcon, external: true },
  { href: STUDIO.social.tiktok, label: `${STUDIO.name} on TikTok`, Icon: TikTokIcon, external: true },
  { href: WHATSAPP_URL, label: `Chat with us on WhatsApp (${STUDIO.phoneDisplay})`, Icon: MessageCircle, external: true },
  { href: MAILTO_URL, label: `Email us at ${STUDIO.email}`, Icon: Mail, external: false },
] as const;

/** Privacy, Terms and Cookies open the studio's current published versions (the spec left them dead). */
const LEGAL_PAGES = [
  { label: 'Privacy', kind: 'privacy' },
  { label: 'Terms', kind: 'terms' },
  { label: 'Cookies', kind: 'cookies' },
] as const;

export function SiteFooter() {
  return (
    <footer className="bg-slate-950 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-[1.4fr_1fr_1fr]">
        <div>
          <Logo tone="light" />
          <p className="mt-4 max-w-sm text-sm leading-relaxed text-slate-400">
            {STUDIO.name} is a fitness booking platform for our community studio in East London: book classes, manage your membership and
            book your first class free.
          </p>
          <ul className="mt-6 flex flex-wrap gap-2" aria-label="Social links">
            {SOCIAL_LINKS.map(({ href, label, Icon, external }) => (
              <li key={href}>
                <a
                  href={href}
                  aria-label={label}
                  title={label}
                  {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                  className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-white/5 text-slate-200 ring-1 ring-white/10 transition-colors hover:bg-brand-600 hover:text-white"
                >
                  <Icon aria-hidden="true" className="h-5 w-5" />
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links" className="text-sm font-semibold uppercase tracking-wider text-white">
            Quick Links
          </h2>
          <ul className="mt-4 space-y-2 text-sm">
            {PUBLIC_NAV_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="inline-block py-1 hover:text-white">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Visit us</h2>
          <address className="mt-4 flex gap-2 text-sm not-italic leading-relaxed">
            <MapPin aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-brand-400" />
            <span>
              {STUDIO_ADDRESS_LINES.map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
            </span>
          </address>
          <p className="mt-4 text-sm">
            <a href={MAILTO_URL} className="hover:text-white">
              {STUDIO.email}
            </a>
          </p>
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-xs text-slate-400 sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>
            © {STUDIO.copyrightYear} {STUDIO.name}. All rights reserved.
          </p>
          <ul className="flex gap-5" aria-label="Legal">
            {LEGAL_PAGES.map((page) => (
              <li key={page.kind}>
                <Link to={paths.legal.href(page.kind)} className="inline-block py-1 hover:text-white">
                  {page.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
