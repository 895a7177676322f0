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

/** The one-click unsubscribe endpoint of reminder emails (netlify/functions/unsubscribe.ts). */
export function unsubscribeUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/.netlify/functions/unsubscribe?token=${encodeURIComponent(token)}`;
}
