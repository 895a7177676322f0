import { expect } from '@playwright/test';
import type { InboxEmail, StackApi } from './local-stack';

/**
 * Waits for the email to `to` whose subject starts with `subject` to reach the stack's inbox (the
 * outbox is delivered by the sender on NOTIFY, so it arrives a moment after the action) and
 * returns it.
 */
export async function waitForEmail(stack: StackApi, to: string, subject: string, timeout = 15_000): Promise<InboxEmail> {
  let found: InboxEmail | undefined;
  await expect
    .poll(
      async () => {
        found = (await stack.inbox.list()).find((m) => m.to === to && m.subject.startsWith(subject));
        return Boolean(found);
      },
      { message: `an email to ${to} starting "${subject}" reaches the inbox`, timeout },
    )
    .toBe(true);
  return found!;
}
