import { Link } from 'react-router-dom';
import { STUDIO } from '@/config/studio';

export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3">
        <Link to="/" className="text-lg font-bold">
          {STUDIO.name}
        </Link>
      </div>
    </header>
  );
}
