/** A link an email offers, as the database stores it: a path on the site. */
export type EmailLink = { label: string; url: string };

/** The outbox's `[{ label, path }]` made absolute on the site; anything malformed is refused. */
export function absoluteLinks(value: unknown, siteUrl: string): EmailLink[] {
  if (!Array.isArray(value)) throw new Error('links is not an array');
  const site = siteUrl.replace(/\/+$/, '');
  return value.map((entry: unknown) => {
    const { label, path } = (entry ?? {}) as { label?: unknown; path?: unknown };
    if (typeof label !== 'string' || typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) {
      throw new Error(`malformed link ${JSON.stringify(entry)}`);
    }
    return { label, url: `${site}${path}` };
  });
}

/** The optional emails a member can stop from the email itself: reminders, and marketing (every marketing email). */
export type EmailList = 'reminders' | 'win_back';

/** Marketing kinds (notification_types' category 'marketing'): their link withdraws marketing consent. */
const MARKETING_KINDS: ReadonlySet<string> = new Set(['win_back', 'marketing_announcement']);

/** The list an outbox kind belongs to: marketing (come-back emails, news) is one; everything else with a token is a reminder. */
export const listOfKind = (kind: string): EmailList => (MARKETING_KINDS.has(kind) ? 'win_back' : 'reminders');

/** The one-click unsubscribe endpoint of optional emails (netlify/functions/unsubscribe.ts), for one list. */
export function unsubscribeUrl(siteUrl: string, token: string, list: EmailList = 'reminders'): string {
  const listParam = list === 'reminders' ? '' : `&list=${list}`;
  return `${siteUrl.replace(/\/+$/, '')}/.netlify/functions/unsubscribe?token=${encodeURIComponent(token)}${listParam}`;
}
