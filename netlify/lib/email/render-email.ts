import { render } from '@react-email/render';
import { createElement } from 'react';
import { EMAIL_BRAND } from './brand';
import { absoluteLinks, listOfKind, unsubscribeUrl } from './email-links';
import type { OutboxEmail } from './outbox-store';
import { OutboxEmailTemplate } from './templates/outbox-email';

/** A rendered email, ready for nodemailer: both parts and the headers. */
export type MailMessage = {
  to: string;
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
};

/** Edit Profile, where members choose their emails (src/config/paths.ts editProfile). */
const PREFERENCES_PATH = '/edit-profile';

/**
 * An outbox row as an email. The text part is the database's own text (its wording is tested
 * there) with the links spelled out and the studio's signature; the HTML part is the branded
 * template. Optional emails (reminders, come-back emails) carry List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058
 * one-click) pointing at the unsubscribe function.
 */
export async function renderEmail(row: OutboxEmail, siteUrl: string): Promise<MailMessage> {
  const links = absoluteLinks(row.links, siteUrl);
  const list = listOfKind(row.kind);
  const unsubscribe = row.unsubscribe_token ? unsubscribeUrl(siteUrl, row.unsubscribe_token, list) : null;
  const manageUrl = `${siteUrl.replace(/\/+$/, '')}${PREFERENCES_PATH}`;
  const classFacts =
    row.class_name && row.class_when
      ? {
          name: row.class_name,
          trainer: row.class_trainer,
          when: row.class_when,
          where: row.class_where ?? null,
          directions: row.class_directions ?? null,
          mapUrl: row.class_map_url ?? null,
        }
      : null;

  const html = await render(
    createElement(OutboxEmailTemplate, {
      kind: row.kind,
      subject: row.subject,
      bodyText: row.body_text,
      links,
      classFacts,
      unsubscribeUrl: unsubscribe,
      manageUrl,
    }),
  );
  const text = [
    row.body_text.trim(),
    links.map((l) => `${l.label}: ${l.url}`).join('\n'),
    unsubscribe &&
      `${list === 'win_back' ? 'Stop these emails' : 'Stop reminder emails'}: ${unsubscribe}\n(or choose on Edit Profile: ${manageUrl})`,
    `${EMAIL_BRAND.name}\n${EMAIL_BRAND.addressLines.join(', ')}`,
  ]
    .filter(Boolean)
    .join('\n\n');

  const headers: Record<string, string> = {};
  if (unsubscribe) {
    headers['List-Unsubscribe'] = `<${unsubscribe}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  return { to: row.to_email, replyTo: row.reply_to ?? undefined, subject: row.subject, html, text: `${text}\n`, headers };
}
