import { Search } from 'lucide-react';
import { controlClasses } from '@/components/ui/field-styles';
import { cn } from '@/components/ui/cn';

export function SearchBox({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="relative w-full max-w-md flex-1 basis-full sm:basis-64">
      <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" />
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={cn(controlClasses(false), 'pl-9')}
      />
    </div>
  );
}
