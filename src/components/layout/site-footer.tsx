import { STUDIO } from '@/config/studio';

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-slate-900 text-slate-200">
      <div className="mx-auto max-w-6xl px-4 py-8 text-sm">
        © {STUDIO.copyrightYear} {STUDIO.name}
      </div>
    </footer>
  );
}
