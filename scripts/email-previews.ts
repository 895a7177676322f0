/**
 * Renders every email (each outbox kind, and the three auth templates filled in as the local auth
 * fills them) and photographs it in headless Chromium at a phone's width:
 *
 *   npx tsx scripts/email-previews.ts [outDir]     (default test-results/email-previews)
 *
 * Writes <name>.html and <name>.png per email and reports any email wider than the phone.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { AUTH_TEMPLATES } from '../netlify/lib/email/auth-templates';
import { EMAIL_SAMPLES } from '../netlify/lib/email/email-samples';
import { renderEmail } from '../netlify/lib/email/render-email';
import { fillAuthTemplate } from '../supabase/local/auth/auth-mailer';
import { repoRoot } from '../supabase/local/config';
import { launchChromium } from '../tests/e2e/support/chromium';

/** An iPhone SE/mini-class viewport: the narrowest phone worth designing for. */
export const PHONE_WIDTH = 375;

export type EmailPreview = { name: string; file: string; screenshot: string; scrollWidth: number };

export async function renderPreviews(outDir: string): Promise<EmailPreview[]> {
  mkdirSync(outDir, { recursive: true });
  const site = 'https://finerfitness.example';
  const pages: Array<{ name: string; html: string }> = [];
  for (const sample of EMAIL_SAMPLES) pages.push({ name: sample.kind, html: (await renderEmail(sample, site)).html });
  for (const t of AUTH_TEMPLATES) {
    const template = readFileSync(`${repoRoot}${t.file}`, 'utf8');
    const confirmationUrl = `https://project-ref.supabase.co/auth/v1/verify?token=${'f'.repeat(56)}&type=${t.kind === 'confirmation' ? 'signup' : t.kind}&redirect_to=${site}/auth/callback`;
    pages.push({
      name: `auth-${t.kind}`,
      html: fillAuthTemplate(template, { confirmationUrl, email: 'mia@example.com', newEmail: 'mia.new@example.com', siteUrl: site }),
    });
  }

  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: PHONE_WIDTH, height: 740 }, deviceScaleFactor: 1 });
    const previews: EmailPreview[] = [];
    for (const p of pages) {
      const file = `${outDir}/${p.name}.html`;
      const screenshot = `${outDir}/${p.name}.png`;
      writeFileSync(file, p.html);
      await page.setContent(p.html, { waitUntil: 'load' });
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      await page.screenshot({ path: screenshot, fullPage: true });
      previews.push({ name: p.name, file, screenshot, scrollWidth });
    }
    return previews;
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  renderPreviews(process.argv[2] ?? `${repoRoot}test-results/email-previews`).then(
    (previews) => {
      for (const p of previews)
        console.log(`${p.scrollWidth > PHONE_WIDTH ? 'TOO WIDE' : 'ok'}  ${p.name}  ${p.scrollWidth}px  ${p.screenshot}`);
      if (previews.some((p) => p.scrollWidth > PHONE_WIDTH)) process.exitCode = 1;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
