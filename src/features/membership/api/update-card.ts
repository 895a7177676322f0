import { callFunction, FunctionError } from '@/lib/functions-client';

const FAILED = 'Could not start checkout, please try again.';

/**
 * "Update card": a card-saving checkout for what is due; the browser goes there and comes back to
 * the payment return page. "Add a card" / "Replace card" of an active plan (decision 0104): the same
 * call saves the card with nothing charged and comes back to My Membership. Resolves to an error
 * message, or null when the browser is leaving.
 */
export async function startCardUpdate(): Promise<string | null> {
  try {
    const { url } = await callFunction('update-card', {});
    if (!url) return FAILED;
    window.location.assign(url);
    return null;
  } catch (error) {
    return error instanceof FunctionError ? (error.serverMessage ?? FAILED) : FAILED;
  }
}
