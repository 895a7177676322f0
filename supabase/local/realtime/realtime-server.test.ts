import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { JwtKeys } from '../jwt';
import type { RestClient } from '../rest-client';
import { RealtimeServer, type ChangeEvent } from './realtime-server';

const jwt = new JwtKeys('a-test-secret-that-is-long-enough-0123456789');

/** Visibility checks answer after a delay chosen per row, to provoke out-of-order completion. */
const delays: Record<string, number> = {};
const rest = {
  request: async (_method: string, path: string) => {
    const id = /id=eq\.([^&]+)/.exec(path)?.[1] ?? '';
    await new Promise((r) => setTimeout(r, delays[decodeURIComponent(id)] ?? 0));
    return [{ id }];
  },
} as unknown as RestClient;

function change(id: string, spots: number): ChangeEvent {
  return {
    schema: 'public',
    table: 'classes',
    type: 'UPDATE',
    commit_timestamp: new Date().toISOString(),
    record: { id, spots_left: spots },
    old_record: { id, spots_left: spots + 1 },
    columns: [
      { name: 'id', type: 'uuid' },
      { name: 'spots_left', type: 'int4' },
    ],
    primary_key: ['id'],
  };
}

describe('RealtimeServer', () => {
  const realtime = new RealtimeServer({ jwt, rest });
  let server: Server;
  let url = '';

  beforeAll(async () => {
    server = createServer();
    server.on('upgrade', (req, socket, head: Buffer) => void realtime.handleUpgrade(req, socket, head, new URL(req.url!, 'http://x')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const anon = await jwt.sign({ role: 'anon' }, 600);
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/realtime/v1/websocket?apikey=${anon}&vsn=2.0.0`;
  });

  afterAll(async () => {
    await realtime.close();
    await new Promise((r) => server.close(r));
  });

  it('delivers changes in commit order even when a later visibility check finishes first', async () => {
    const ws = new WebSocket(url);
    const frames: unknown[][] = [];
    ws.on('message', (d: Buffer) => frames.push(JSON.parse(d.toString()) as unknown[]));
    await new Promise((r) => ws.once('open', r));
    ws.send(
      JSON.stringify([
        '1',
        '1',
        'realtime:c',
        'phx_join',
        { config: { postgres_changes: [{ event: 'UPDATE', schema: 'public', table: 'classes' }] } },
      ]),
    );
    await expect.poll(() => frames.length).toBe(2);

    delays.slow = 150;
    delays.fast = 0;
    void realtime.enqueue(change('slow', 5));
    await realtime.enqueue(change('fast', 4));

    const changes = () =>
      frames.filter((f) => f[3] === 'postgres_changes').map((f) => (f[4] as { data: { record: { id: string } } }).data.record.id);
    await expect.poll(changes).toHaveLength(2);
    expect(changes()).toEqual(['slow', 'fast']);
    ws.close();
  });
});
