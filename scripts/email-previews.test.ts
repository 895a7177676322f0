import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { findChromium } from '../tests/e2e/support/chromium';
import { staleAuthTemplates } from './email-templates';
import { PHONE_WIDTH, renderPreviews } from './email-previews';

describe('emails on a phone', () => {
  it.skipIf(!findChromium())('render every kind of email within 375 px, in Chromium', async () => {
    const dir = mkdtempSync(`${tmpdir()}/email-previews-`);
    try {
      const previews = await renderPreviews(dir);
      expect(previews.map((p) => p.name)).toEqual([
        'booking_confirmed',
        'booking_cancelled',
        'waitlist_cancelled',
        'waitlist_promoted',
        'class_reminder',
        'contact_message',
        'renewal_receipt',
        'payment_failed',
        'membership_ended',
        'trial_ending',
        'renewal_reminder',
        'import_card_request',
        'membership_paused',
        'pause_ending',
        'attendance_incident',
        'referral_reward',
        'direct_debit_notice',
        'direct_debit_mandate_cancelled',
        'direct_debit_charged_back',
        'credits_expiring',
        'payment_receipt',
        'refund_receipt',
        'class_moved',
        'class_changed',
        'guest_invited',
        'guest_cancelled',
        'host_guest_cancelled',
        'studio_message',
        'win_back',
        'announcement',
        'marketing_announcement',
        'document_updated',
        'review_request',
        'gift_voucher',
        'system_alert',
        'auth-confirmation',
        'auth-recovery',
        'auth-email_change',
        'auth-invite',
      ]);
      for (const p of previews) {
        expect(p.scrollWidth, `${p.name} is wider than a phone`).toBeLessThanOrEqual(PHONE_WIDTH);
        expect(existsSync(p.screenshot)).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('supabase/templates', () => {
  it('are the current render of the auth email template, wired in config.toml', async () => {
    expect(await staleAuthTemplates(false)).toEqual([]);
  });
});
