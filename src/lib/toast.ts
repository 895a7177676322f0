import type { ToastOptions } from 'react-hot-toast';

/**
 * The app's toasts. react-hot-toast loads with the first one rather than with the page: its
 * module puts goober's style sheet into the document as it is evaluated (a 50–120 ms task on a
 * phone, measured by the Lighthouse bench) and weighs 4.5 KB gzip, for messages most visits to a
 * public page never show. The Toaster mounts at the same moment (`ToasterHost`).
 * Calls keep their order: they all wait on the same import.
 */
type Library = typeof import('react-hot-toast');
let library: Promise<Library> | undefined;
const listeners = new Set<() => void>();

function load(): Promise<Library> {
  if (!library) {
    library = import('react-hot-toast');
    for (const listener of listeners) listener();
  }
  return library;
}

function show(call: (lib: Library) => unknown): void {
  // A failed import (the network dropped) loses the message, as a page without the module would.
  load().then(call, () => undefined);
}

type Show = (message: string, options?: ToastOptions) => void;

export const toast: Show & { success: Show; error: Show } = Object.assign(
  (message: string, options?: ToastOptions) => show((lib) => lib.default(message, options)),
  {
    success: (message: string, options?: ToastOptions) => show((lib) => lib.default.success(message, options)),
    error: (message: string, options?: ToastOptions) => show((lib) => lib.default.error(message, options)),
  },
);

/** Whether a toast has been asked for on this page yet (the Toaster mounts from then on). */
export function toastsRequested(): boolean {
  return library !== undefined;
}

export function subscribeToToastRequests(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
