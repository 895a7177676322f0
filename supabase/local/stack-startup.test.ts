import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../tests/support/raw-http';
import { freePort } from './postgrest-process';
import { startStack, type Stack } from './stack';

// The stack answers no API request before every part is ready: 503 with Retry-After, so a
// browser or test that arrives early waits instead of getting half a stack.

let stack: Stack | undefined;

afterAll(async () => {
  await stack?.stop();
});

describe('start-up', () => {
  it('answers 503 with Retry-After until every part is ready, then serves', async () => {
    const port = await freePort();
    const starting = startStack({ port, dataDir: 'memory', quiet: true });
    const early: Array<{ status: number; retryAfter: string | null }> = [];
    let settled = false;
    void starting.finally(() => (settled = true)).catch(() => undefined);
    while (!settled) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/auth/v1/settings`);
        if (!settled) early.push({ status: res.status, retryAfter: res.headers.get('retry-after') });
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    stack = await starting;
    expect(early.length).toBeGreaterThan(0);
    expect(early.every((r) => r.status === 503 && r.retryAfter === '1')).toBe(true);
    const ready = await fetch(`${stack.url}/auth/v1/settings`, { headers: { apikey: stack.anonKey } });
    expect(ready.status).toBe(200);
  });

  it('HEAD with count=exact gives the count and leaves the keep-alive connection clean', async () => {
    const c = createClient(stack!.url, stack!.anonKey, {
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const counted = await c.from('classes').select('*', { count: 'exact', head: true });
    expect(counted.error).toBeNull();
    expect(counted.status).toBe(200);
    expect(counted.count).toBeGreaterThan(0);

    // A HEAD then a GET on the same socket: both answered in full, nothing left over in between.
    const headers = `Host: 127.0.0.1\r\napikey: ${stack!.anonKey}\r\nConnection: keep-alive\r\n`;
    const text = await rawExchange(
      stack!.port,
      [
        `HEAD /rest/v1/classes?select=* HTTP/1.1\r\n${headers}Prefer: count=exact\r\n\r\n`,
        `GET /rest/v1/classes?select=id&limit=1 HTTP/1.1\r\n${headers}\r\n`,
      ],
      2,
    );
    const [head, get] = text.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toMatch(/content-range: 0-\d+\/\d+/i);
    expect(head!.split('\r\n\r\n')[1]).toBe('');
    expect(get).toMatch(/^HTTP\/1\.1 200 /);
    expect(get).toMatch(/\[\{"id":/);
  });
});
