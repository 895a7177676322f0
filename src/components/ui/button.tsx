import type { ButtonHTMLAttributes } from 'react';
import { Loader2 } from 'lucide-react';
import { buttonClasses, type ButtonSize, type ButtonVariant } from './button-styles';

// Re-exported so `import { buttonClasses } from '@/components/ui/button'` keeps working.
// eslint-disable-next-line react-refresh/only-export-components -- a class helper; HMR of this file reloads instead
export { buttonClasses } from './button-styles';
export type { ButtonSize, ButtonVariant } from './button-styles';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner, disables the button and marks it busy; pass the busy label as children (e.g. "Signing in..."). */
  loading?: boolean;
};

export function Button({ variant, size, loading = false, className, disabled, children, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClasses({ variant, size, className })}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading && <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />}
      {children}
    </button>
  );
}
