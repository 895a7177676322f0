import { STUDIO } from '../../src/config/studio.ts';
import { EMBED_PATH_PATTERN, framedPolicy } from '../lib/embed-frame.ts';

/**
 * The embeddable timetable's framing rule (decision 0089): the page as Netlify serves it (with
 * netlify.toml's headers for /*), its Content-Security-Policy's `frame-ancestors` rewritten to the
 * studio's listed sites and its X-Frame-Options removed. Every other path keeps 'none' and DENY.
 */
export default async function embedFrame(_request: Request, context: { next: () => Promise<Response> }): Promise<Response> {
  const page = await context.next();
  const headers = new Headers(page.headers);
  headers.set('Content-Security-Policy', framedPolicy(headers.get('Content-Security-Policy') ?? '', STUDIO.embedOrigins));
  headers.delete('X-Frame-Options');
  return new Response(page.body, { status: page.status, statusText: page.statusText, headers });
}

export const config = { path: EMBED_PATH_PATTERN };
