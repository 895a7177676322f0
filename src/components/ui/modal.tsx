import { useEffect, useId, useRef, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { cn } from './cn';

type ModalProps = {
  open: boolean;
  /** Called for Escape, the close button and a click on the backdrop. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
};

/**
 * An accessible modal dialog on the native <dialog> element: `showModal()` puts it in the top
 * layer and makes the rest of the page inert (so focus stays inside), Escape fires `cancel`, and
 * the browser labels it modal. Focus goes back to whatever opened it when it closes.
 * Content is only mounted while open, so forms inside start fresh each time.
 */
export function Modal({ open, onClose, title, description, children, className }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      aria-modal="true"
      onCancel={(event) => {
        // Escape: let React state decide, so the dialog and `open` never disagree.
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the ::backdrop lands on the dialog element itself, outside the panel.
        if (event.target === event.currentTarget) onClose();
      }}
      className={cn(
        'm-auto w-[calc(100%-2rem)] max-w-lg rounded-2xl bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-950/60 backdrop:backdrop-blur-sm',
        className,
      )}
    >
      {open && (
        <div className="relative max-h-[calc(100dvh-2rem)] overflow-y-auto p-6 sm:p-8">
          <button
            type="button"
            onClick={onClose}
            className="absolute right-3 top-3 inline-flex h-10 w-10 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 hover:text-slate-900"
            aria-label="Close"
          >
            <X aria-hidden="true" className="h-5 w-5" />
          </button>
          <h2 id={titleId} className="pr-10 text-xl font-bold tracking-tight">
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="mt-2 text-sm text-slate-600">
              {description}
            </p>
          )}
          <div className="mt-6">{children}</div>
        </div>
      )}
    </dialog>
  );
}
