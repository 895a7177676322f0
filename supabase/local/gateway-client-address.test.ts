import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack';

// Hosted's gateway hands PostgREST the client's address as the first X-Forwarded-For hop, taken
// from the connection (Supabase's docs read it so for per-IP limits). The local gateway must do
// the same and never pass on what the client claims (Contact Us limits per client).
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ port: 0, dataDir: 'memory', quiet: true });
});
afterAll(async () => {
  await stack?.stop();
});

describe('the gateway in front of PostgREST', () => {
  it('gives SQL the connection address, whatever X-Forwarded-For the client sends', async () => {
    const email = `spoofer-${Date.now()}@example.test`;
    const res = await fetch(`${stack.url}/rest/v1/rpc/submit_contact_message`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.99, 10.0.0.1' },
      body: JSON.stringify({ p_name: 'Spoofer', p_email: email, p_message: 'Hello' }),
    });
    expect(res.status).toBe(200);
    const rows = await fetch(`${stack.url}/rest/v1/contact_messages?select=client_address&email=eq.${encodeURIComponent(email)}`, {
      headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
    });
    expect(await rows.json()).toEqual([{ client_address: '127.0.0.1' }]);
  });
});
