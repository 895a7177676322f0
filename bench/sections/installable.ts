import { ACCOUNTS, signInContext } from '../../tests/e2e/support/accounts';
import { checkInstallability, installableContext } from '../../tests/e2e/support/installability';
import type { LocalStack } from '../../tests/e2e/support/local-stack';
import type { Report } from '../report';

/**
 * Lighthouse 12 dropped its PWA category, so its installability checks are scripted
 * (tests/e2e/support/installability.ts) and printed here, as a member on a phone-sized screen.
 */
export async function measureInstallability(report: Report, stack: LocalStack, origin: string): Promise<void> {
  const { context, close } = await installableContext(origin);
  try {
    await signInContext(context, stack, ACCOUNTS.premium);
    const page = await context.newPage();
    await page.goto('/my-schedule', { waitUntil: 'load' });
    for (const { check, ok, detail } of await checkInstallability(context, page))
      report.add({ section: 'installable', metric: check, value: ok ? `pass${detail ? ` (${detail})` : ''}` : `FAIL (${detail})`, ok });
  } finally {
    await close();
  }
}
