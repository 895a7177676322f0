import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startPgliteHost } from './database-host';
import { DatabaseConnectionRefused, startPostgrest, type PostgrestProcess } from './postgrest-process';

// The PGlite socket takes one client. A stray one holding that slot (a client of an earlier stack
// whose port was handed out again) made every PostgREST start on the port fail after 30 s; the
// start now says so at once and the stack opens the socket again on a new port.
const opened: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  for (const o of opened.reverse()) await o.stop();
});

const postgrestOn = (dbUri: string) =>
  startPostgrest({
    dbUri,
    jwtSecret: 'a-test-secret-of-at-least-thirty-two-chars',
    schemas: ['public'],
    singleSession: true,
    env: process.env,
    quiet: true,
  });

describe('a stray client on the PGlite socket', () => {
  it('is reported as refused, and PostgREST starts on the socket opened again', async () => {
    const host = await startPgliteHost({ dataDir: 'memory', seed: false, onChange: () => {}, onOutbox: () => {} });
    opened.push(host);
    const port = Number(new URL(host.dbUri).port);
    const stray: Socket = await new Promise((resolve) => {
      const s = connect(port, '127.0.0.1', () => resolve(s));
    });
    opened.push({ stop: () => Promise.resolve(void stray.destroy()) });
    await new Promise((r) => setTimeout(r, 100));

    const started = Date.now();
    await expect(postgrestOn(host.dbUri)).rejects.toBeInstanceOf(DatabaseConnectionRefused);
    expect(Date.now() - started).toBeLessThan(25_000);

    const postgrest: PostgrestProcess = await postgrestOn(await host.reopen!());
    opened.push(postgrest);
    expect((await fetch(`${postgrest.url}/`)).status).toBeLessThan(500);
  }, 60_000);
});
