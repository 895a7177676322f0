import { FunctionError } from '@/lib/functions-client';

/** The words of the gift voucher screens, named once. */
export const VOUCHER_MESSAGES = {
  loadFailed: 'Could not load the gift voucher options. Please try again.',
  buyFailed: 'Could not start checkout, please try again.',
  redeemFailed: 'Could not redeem the code. Please try again.',
  extendFailed: 'Could not change the expiry. Please try again.',
  settingsSaved: 'Gift voucher settings saved',
  settingsFailed: 'Could not save the settings. Please try again.',
} as const;

/** The server's own message for a refusal it explained (the database's words), else the fallback. */
export function voucherErrorText(error: unknown, fallback: string): string {
  if (error instanceof FunctionError && error.status < 500 && error.serverMessage) return error.serverMessage;
  if (typeof error === 'object' && error !== null && 'hint' in error && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return fallback;
}
