import { callMembershipFunction } from './membership-function';

export const UPDATE_CARD_ENDPOINT = '/.netlify/functions/update-card';

/**
 * "Update card": a card-saving checkout for what is due; the browser goes there and comes back to
 * the payment return page. Resolves to an error message, or null when the browser is leaving.
 */
export async function startCardUpdate(): Promise<string | null> {
  try {
    const answer = await callMembershipFunction(UPDATE_CARD_ENDPOINT);
    const url = answer.body.url;
    if (answer.ok && typeof url === 'string' && url) {
      window.location.assign(url);
      return null;
    }
    return typeof answer.body.message === 'string' ? answer.body.message : 'Could not start checkout, please try again.';
  } catch {
    return 'Could not start checkout, please try again.';
  }
}
