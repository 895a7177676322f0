/** @jsxRuntime automatic */
import { Link, Section, Text } from '@react-email/components';
import { Fragment } from 'react';
import { EMAIL_BRAND } from '../brand';
import type { EmailLink } from '../email-links';
import { EmailLayout, PrimaryButton, textStyle } from './email-layout';

const { colors } = EMAIL_BRAND;

/** What the database wrote (subject, text) plus what the HTML adds: the class card and buttons. */
export type OutboxEmailProps = {
  kind: string;
  subject: string;
  /** Paragraphs separated by blank lines, as the database rendered them. */
  bodyText: string;
  links: EmailLink[];
  /** `where` is the class's meeting point or the hall (private.class_where); null = the hall. */
  classFacts: {
    name: string;
    trainer: string | null;
    when: string;
    where?: string | null;
    directions?: string | null;
    mapUrl?: string | null;
  } | null;
  unsubscribeUrl: string | null;
  manageUrl: string;
};

/** The heading of each kind of email; unknown kinds use their subject. */
export const EMAIL_HEADINGS: Record<string, string> = {
  booking_confirmed: "You're booked",
  waitlist_promoted: "A spot opened: you're in",
  booking_cancelled: 'Booking cancelled',
  waitlist_cancelled: 'Class cancelled',
  class_reminder: 'See you soon',
  contact_message: 'New Contact Us message',
  renewal_receipt: 'Thank you: membership renewed',
  payment_failed: 'Your payment failed',
  membership_ended: 'Your membership has ended',
  trial_ending: 'Your free trial ends tomorrow',
  renewal_reminder: 'Your membership renews soon',
  credits_expiring: 'Your credits expire soon',
  payment_receipt: 'Thank you: payment received',
  refund_receipt: 'Your refund is on its way',
  class_moved: 'Your class has moved',
  guest_invited: "You're booked as a guest",
  guest_cancelled: 'Guest place cancelled',
  host_guest_cancelled: 'Your guest cancelled',
  studio_message: 'A message from the studio',
  system_alert: 'System alert',
  win_back: 'We would love to see you again',
};

/** The text body's paragraphs; with a class card the "When: … Where: …" one is the card. */
export function bodyParagraphs(bodyText: string, withClassCard: boolean): string[] {
  return bodyText
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p && !(withClassCard && p.startsWith('When: ')));
}

function Lines({ text }: { text: string }) {
  const lines = text.split('\n');
  return lines.map((line, i) => (
    <Fragment key={i}>
      {line}
      {i < lines.length - 1 && <br />}
    </Fragment>
  ));
}

function ClassCard({ facts }: { facts: NonNullable<OutboxEmailProps['classFacts']> }) {
  const row = (label: string, value: string) => (
    <Text style={{ ...textStyle, margin: '0 0 8px' }}>
      <span style={{ color: colors.muted, fontSize: '13px', textTransform: 'uppercase', letterSpacing: '0.06em' }}>{label}</span>
      <br />
      <strong>{value}</strong>
    </Text>
  );
  return (
    <Section
      style={{
        backgroundColor: colors.tint,
        border: `1px solid ${colors.tintBorder}`,
        borderRadius: '10px',
        padding: '16px 16px 8px',
        margin: '0 0 20px',
      }}
    >
      {row('Class', facts.trainer ? `${facts.name} with ${facts.trainer}` : facts.name)}
      {row('When', `${facts.when} (London time)`)}
      {row('Where', facts.where ?? EMAIL_BRAND.addressLines.join(', '))}
      {facts.directions && row('Directions', facts.directions)}
      {facts.mapUrl && (
        <Text style={{ ...textStyle, margin: '0 0 8px' }}>
          <Link href={facts.mapUrl} style={{ color: colors.accentDark, fontWeight: 600 }}>
            Open the map
          </Link>
        </Text>
      )}
    </Section>
  );
}

export function OutboxEmailTemplate({ kind, subject, bodyText, links, classFacts, unsubscribeUrl, manageUrl }: OutboxEmailProps) {
  const paragraphs = bodyParagraphs(bodyText, classFacts !== null);
  const [primary, ...others] = links;
  const preview = paragraphs.find((p) => !p.startsWith('Hi ')) ?? subject;
  return (
    <EmailLayout
      preview={preview.split('\n')[0]!}
      heading={EMAIL_HEADINGS[kind] ?? subject}
      footer={
        unsubscribeUrl && (
          <Text style={{ fontSize: '13px', lineHeight: '20px', color: colors.muted, margin: '0 0 8px' }}>
            You get class reminders because you booked this class.{' '}
            <Link href={unsubscribeUrl} style={{ color: colors.accentDark }}>
              Stop reminder emails
            </Link>{' '}
            or choose on{' '}
            <Link href={manageUrl} style={{ color: colors.accentDark }}>
              Edit Profile
            </Link>
            . Booking confirmations still come.
          </Text>
        )
      }
    >
      {paragraphs.slice(0, 1).map((p) => (
        <Text key="hello" style={textStyle}>
          <Lines text={p} />
        </Text>
      ))}
      {classFacts && <ClassCard facts={classFacts} />}
      {paragraphs.slice(1).map((p, i) => (
        <Text key={i} style={kind === 'contact_message' && i === 0 ? { ...textStyle, color: colors.muted } : textStyle}>
          <Lines text={p} />
        </Text>
      ))}
      {primary && <PrimaryButton href={primary.url}>{primary.label}</PrimaryButton>}
      {others.map((l) => (
        <Text key={l.url} style={{ ...textStyle, textAlign: 'center', margin: '12px 0 0' }}>
          <Link href={l.url} style={{ color: colors.accentDark, fontWeight: 600 }}>
            {l.label}
          </Link>
        </Text>
      ))}
    </EmailLayout>
  );
}
