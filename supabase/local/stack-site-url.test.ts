import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServerEnv } from '../../netlify/lib/server-env';
import { returnPageUrl } from '../../netlify/lib/payments/payment-rules';
import { startStack, type Stack } from './stack';

// The functions the stack hosts sent checkout returns and calendar-feed links to :5173
// whatever site the stack served (SITE_PORT / SITE_URL in .env). They read SITE_URL, which the
// stack now sets to the site it serves, as Netlify sets URL for the deployed functions.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ port: 0, dataDir: 'memory', quiet: true, siteUrl: 'http://127.0.0.1:5999/' });
});
afterAll(async () => {
  await stack?.stop();
});

describe('the site the hosted functions link to', () => {
  it('is the site the stack serves', () => {
    const env = readServerEnv();
    expect(env.siteUrl).toBe('http://127.0.0.1:5999');
    expect(returnPageUrl(env.siteUrl, 'plan-1')).toBe('http://127.0.0.1:5999/payment/return?ref=plan-1');
  });
});
