/** Why an action waits while the browser is offline: shown by components/ui/offline-note.tsx. */
export const OFFLINE_NOTES = {
  book: 'Booking needs a connection.',
  cancel: 'Cancelling needs a connection.',
} as const;
