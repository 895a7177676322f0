/** @jsxRuntime automatic */
import { Body, Button, Container, Head, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import type { ReactNode } from 'react';
import { EMAIL_BRAND } from '../brand';

const { colors } = EMAIL_BRAND;

// overflow-wrap: anywhere lets a long unbroken word (a name, an address) wrap instead of widening the email (one once grew to 764 px).
export const textStyle = {
  fontSize: '16px',
  lineHeight: '24px',
  color: colors.text,
  margin: '0 0 16px',
  overflowWrap: 'anywhere',
  wordBreak: 'break-word',
} as const;

/** The one call to action: a full-width button, easy to hit with a thumb. */
export function PrimaryButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: '8px 0 20px' }}>
      <Button
        href={href}
        style={{
          backgroundColor: colors.accent,
          color: '#ffffff',
          borderRadius: '8px',
          fontSize: '16px',
          lineHeight: '22px',
          fontWeight: 600,
          padding: '14px 20px',
          display: 'block',
          textAlign: 'center',
        }}
      >
        {children}
      </Button>
    </Section>
  );
}

type Props = {
  /** The line mail apps show after the subject. */
  preview: string;
  heading: string;
  children: ReactNode;
  /** Extra footer lines (e.g. how to stop reminders). */
  footer?: ReactNode;
};

/**
 * The studio's email frame: a coloured band with the studio's name, a white card with the
 * content, and a footer with the address. One column, 600 px at most, 16 px text: readable on a
 * 375 px phone without zooming. Inline styles only (what mail apps keep).
 */
export function EmailLayout({ preview, heading, children, footer }: Props) {
  return (
    <Html lang="en">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: colors.page, fontFamily: EMAIL_BRAND.fontFamily, margin: 0, padding: '16px 0' }}>
        <Container style={{ maxWidth: '600px', width: '100%', margin: '0 auto', padding: '0 8px', boxSizing: 'border-box' }}>
          <Section style={{ backgroundColor: colors.accent, borderRadius: '12px 12px 0 0', padding: '20px 24px' }}>
            <Text style={{ color: '#ffffff', fontSize: '20px', fontWeight: 700, letterSpacing: '0.02em', margin: 0 }}>
              {EMAIL_BRAND.name}
            </Text>
            <Text style={{ color: colors.tint, fontSize: '13px', margin: '4px 0 0' }}>{EMAIL_BRAND.tagline}</Text>
          </Section>
          <Section
            style={{
              backgroundColor: '#ffffff',
              padding: '24px',
              borderRadius: '0 0 12px 12px',
              border: `1px solid ${colors.tintBorder}`,
              borderTop: 'none',
            }}
          >
            <Text style={{ ...textStyle, fontSize: '22px', lineHeight: '30px', fontWeight: 700, margin: '0 0 20px' }}>{heading}</Text>
            {children}
          </Section>
          <Section style={{ padding: '16px 24px' }}>
            {footer}
            <Hr style={{ borderColor: colors.tintBorder, margin: '8px 0 12px' }} />
            <Text style={{ fontSize: '13px', lineHeight: '20px', color: colors.muted, margin: 0 }}>
              {EMAIL_BRAND.name} · {EMAIL_BRAND.addressLines.join(', ')}
              <br />
              <Link href={`mailto:${EMAIL_BRAND.email}`} style={{ color: colors.accentDark }}>
                {EMAIL_BRAND.email}
              </Link>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
