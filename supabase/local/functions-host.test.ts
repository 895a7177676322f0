import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FunctionsHost } from './functions-host';

describe('FunctionsHost', () => {
  const dir = mkdtempSync(join(tmpdir(), 'functions-host-'));
  let server: Server;
  let url = '';

  beforeAll(async () => {
    writeFileSync(
      join(dir, 'echo.mjs'),
      `export default async (req, context) => Response.json(
        { method: req.method, url: req.url, body: await req.text(), hasIp: typeof context.ip === 'string' },
        { status: 201, headers: { 'x-fn': 'echo' } });`,
    );
    writeFileSync(join(dir, 'broken.mjs'), 'export const handler = () => null;');
    const host = new FunctionsHost(dir, () => url);
    server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      void host.handle(req, res, u.pathname.split('/').pop()!, u);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('calls the default export with a web Request and relays its Response', async () => {
    const res = await fetch(`${url}/.netlify/functions/echo?x=1`, { method: 'POST', body: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-fn')).toBe('echo');
    expect(await res.json()).toEqual({ method: 'POST', url: `${url}/.netlify/functions/echo?x=1`, body: '{"a":1}', hasIp: true });
  });

  it('explains a missing function or a missing default export', async () => {
    const missing = await fetch(`${url}/.netlify/functions/nope`);
    expect(missing.status).toBe(404);
    const broken = await fetch(`${url}/.netlify/functions/broken`);
    expect(broken.status).toBe(500);
    expect(((await broken.json()) as { error: string }).error).toContain('no default export');
  });
});
