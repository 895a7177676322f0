import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { JwtKeys } from '../jwt';
import type { RestClient } from '../rest-client';
import { matchesFilter, parseFilter, type ChangeFilter } from './change-filter';

/** A row change as the database trigger (gateway.sql: local_gateway.notify_change) reports it. */
export interface ChangeEvent {
  schema: string;
  table: string;
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  commit_timestamp: string;
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  columns: Array<{ name: string; type: string }>;
  primary_key: string[] | null;
  /** pg_class.relreplident: 'd' default (old row = primary key), 'f' full, 'n' nothing, 'i' index. */
  replica_identity?: 'd' | 'f' | 'n' | 'i';
  rls_enabled?: boolean;
}

const pick = (row: Record<string, unknown> | null, keys: string[]) =>
  row ? Object.fromEntries(keys.filter((k) => k in row).map((k) => [k, row[k]])) : {};

/**
 * The old row as logical replication carries it, which is all hosted Realtime knows of it: the
 * primary key, or every column with REPLICA IDENTITY FULL (the trigger sees the whole row).
 */
export function replicatedOldRow(change: ChangeEvent): Record<string, unknown> | null {
  if (change.type === 'INSERT' || !change.old_record) return null;
  if (change.replica_identity === 'f') return change.old_record;
  if (change.replica_identity === 'n') return {};
  return pick(change.old_record, change.primary_key ?? []);
}

/**
 * Whether a binding's filter lets a change through, as Realtime's apply_rls decides: on the new
 * row, or for a DELETE on the replicated old row (so a DELETE filtered on a column outside the
 * primary key only arrives when the table's replica identity is full).
 */
export function passesFilter(filter: ChangeFilter | null, change: ChangeEvent): boolean {
  if (change.type === 'DELETE') return matchesFilter(filter, {}) || matchesFilter(filter, replicatedOldRow(change));
  return matchesFilter(filter, change.record);
}

/**
 * The payload's old_record: the replicated old row for UPDATE; for DELETE the same, cut to the
 * primary key when RLS is on (Realtime cannot check a deleted row against policies).
 */
export function deliveredOldRecord(change: ChangeEvent): Record<string, unknown> {
  const old = replicatedOldRow(change) ?? {};
  return change.type === 'DELETE' && change.rls_enabled !== false ? pick(old, change.primary_key ?? []) : old;
}

interface Binding {
  id: number;
  event: string;
  schema: string;
  table: string;
  filter?: string;
  parsed: ChangeFilter | null;
}

interface Channel {
  topic: string;
  joinRef: string | null;
  token: string;
  role: string;
  bindings: Binding[];
}

type Frame = { joinRef: string | null; ref: string | null; topic: string; event: string; payload: Record<string, unknown> };

interface Client {
  ws: WebSocket;
  vsn2: boolean;
  apikey: string;
  channels: Map<string, Channel>;
}

/**
 * Realtime's Phoenix-channel protocol for `postgres_changes` (vsn 2.0.0 array frames and 1.0.0
 * objects). A subscriber receives a change only if its role may select the row (checked through
 * PostgREST with the subscriber's own JWT, so the table's RLS policies decide).
 */
export class RealtimeServer {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly clients = new Set<Client>();
  private nextBindingId = 1000;

  constructor(private readonly deps: { jwt: JwtKeys; rest: RestClient }) {}

  async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> {
    const apikey = url.searchParams.get('apikey') ?? String(req.headers.apikey ?? '');
    const claims = await this.deps.jwt.verify(apikey);
    if (!claims || (claims.role !== 'anon' && claims.role !== 'service_role')) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"message":"Invalid API key"}');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const client: Client = { ws, vsn2: url.searchParams.get('vsn') === '2.0.0', apikey, channels: new Map() };
      this.clients.add(client);
      ws.on('message', (data: Buffer) => void this.onMessage(client, data.toString('utf8')));
      ws.on('close', () => this.clients.delete(client));
      ws.on('error', () => this.clients.delete(client));
    });
  }

  private send(client: Client, frame: Frame): void {
    if (client.ws.readyState !== client.ws.OPEN) return;
    const msg = client.vsn2
      ? [frame.joinRef, frame.ref, frame.topic, frame.event, frame.payload]
      : { join_ref: frame.joinRef, ref: frame.ref, topic: frame.topic, event: frame.event, payload: frame.payload };
    client.ws.send(JSON.stringify(msg));
  }

  private reply(client: Client, f: Frame, status: 'ok' | 'error', response: Record<string, unknown> = {}): void {
    this.send(client, { joinRef: f.joinRef, ref: f.ref, topic: f.topic, event: 'phx_reply', payload: { status, response } });
  }

  private parse(client: Client, text: string): Frame | null {
    try {
      const raw: unknown = JSON.parse(text);
      if (client.vsn2 && Array.isArray(raw)) {
        const [joinRef, ref, topic, event, payload] = raw as [string | null, string | null, string, string, Record<string, unknown>];
        return { joinRef, ref, topic, event, payload: payload ?? {} };
      }
      if (!Array.isArray(raw) && raw && typeof raw === 'object') {
        const o = raw as { join_ref?: string; ref?: string; topic: string; event: string; payload?: Record<string, unknown> };
        return { joinRef: o.join_ref ?? null, ref: o.ref ?? null, topic: o.topic, event: o.event, payload: o.payload ?? {} };
      }
    } catch {
      // ignore malformed frames, as Phoenix does
    }
    return null;
  }

  private async onMessage(client: Client, text: string): Promise<void> {
    const f = this.parse(client, text);
    if (!f) return;
    if (f.topic === 'phoenix' && f.event === 'heartbeat') return this.reply(client, f, 'ok');
    if (f.event === 'phx_join') return this.join(client, f);
    if (f.event === 'phx_leave') {
      client.channels.delete(f.topic);
      return this.reply(client, f, 'ok');
    }
    if (f.event === 'access_token') {
      const channel = client.channels.get(f.topic);
      const token = typeof f.payload.access_token === 'string' ? f.payload.access_token : null;
      const claims = await this.deps.jwt.verify(token);
      if (channel && token && claims) {
        channel.token = token;
        channel.role = String(claims.role ?? 'anon');
      }
      return this.reply(client, f, 'ok');
    }
    // Broadcast and presence are not used by the app; acknowledge so clients do not time out.
    if (f.ref) this.reply(client, f, 'ok');
  }

  private async join(client: Client, f: Frame): Promise<void> {
    const token = typeof f.payload.access_token === 'string' ? f.payload.access_token : client.apikey;
    const claims = await this.deps.jwt.verify(token);
    if (!claims) return this.reply(client, f, 'error', { reason: 'Invalid JWT' });
    const config = (f.payload.config ?? {}) as {
      postgres_changes?: Array<{ event?: string; schema?: string; table?: string; filter?: string }>;
    };
    const requested = config.postgres_changes ?? [];
    const bindings: Binding[] = [];
    for (const b of requested) {
      const parsed = parseFilter(b.filter);
      if (parsed === 'invalid') {
        return this.reply(client, f, 'error', { reason: `Invalid filter: ${b.filter}` });
      }
      bindings.push({
        id: this.nextBindingId++,
        event: (b.event ?? '*').toUpperCase(),
        schema: b.schema ?? 'public',
        table: b.table ?? '*',
        filter: b.filter,
        parsed,
      });
    }
    client.channels.set(f.topic, { topic: f.topic, joinRef: f.joinRef, token, role: String(claims.role ?? 'anon'), bindings });
    this.reply(client, f, 'ok', {
      postgres_changes: bindings.map((b) => ({
        id: b.id,
        event: b.event,
        schema: b.schema,
        table: b.table,
        ...(b.filter ? { filter: b.filter } : {}),
      })),
    });
    if (bindings.length) {
      this.send(client, {
        joinRef: null,
        ref: null,
        topic: f.topic,
        event: 'system',
        payload: {
          channel: f.topic.replace(/^realtime:/, ''),
          extension: 'postgres_changes',
          message: 'Subscribed to PostgreSQL',
          status: 'ok',
        },
      });
    }
  }

  /** Whether the holder of `token` may select the changed row (its RLS policies decide). */
  private async canSee(token: string, change: ChangeEvent): Promise<boolean> {
    const pk = change.primary_key ?? [];
    if (!change.record || pk.length === 0) return false;
    const filters = pk.map((col) => `${encodeURIComponent(col)}=eq.${encodeURIComponent(String(change.record![col] as string))}`);
    try {
      const rows = await this.deps.rest.request<unknown[]>(
        'GET',
        `/${encodeURIComponent(change.table)}?select=${encodeURIComponent(pk[0]!)}&${filters.join('&')}`,
        {
          token,
          schema: change.schema,
        },
      );
      return rows.length > 0;
    } catch {
      return false;
    }
  }

  private queue: Promise<void> = Promise.resolve();

  /**
   * Queues a committed change for delivery. Changes go out one at a time in commit order (each
   * waits for the previous one's visibility checks), so a subscriber never sees a row go backwards.
   */
  enqueue(change: ChangeEvent): Promise<void> {
    this.queue = this.queue
      .then(() => this.publish(change))
      .catch((error: unknown) => console.error('[local stack] realtime delivery failed', error));
    return this.queue;
  }

  /** Delivers a committed change to every matching subscription allowed to see it. */
  private async publish(change: ChangeEvent): Promise<void> {
    const visibility = new Map<string, Promise<boolean>>();
    const deliveries: Array<Promise<void>> = [];
    for (const client of this.clients) {
      for (const channel of client.channels.values()) {
        const ids = channel.bindings
          .filter(
            (b) =>
              (b.event === '*' || b.event === change.type) &&
              b.schema === change.schema &&
              (b.table === '*' || b.table === change.table) &&
              passesFilter(b.parsed, change),
          )
          .map((b) => b.id);
        if (ids.length === 0) continue;
        deliveries.push(
          (async () => {
            if (change.type !== 'DELETE' && channel.role !== 'service_role') {
              let seen = visibility.get(channel.token);
              if (!seen) visibility.set(channel.token, (seen = this.canSee(channel.token, change)));
              if (!(await seen)) return;
            }
            const data: Record<string, unknown> = {
              schema: change.schema,
              table: change.table,
              commit_timestamp: change.commit_timestamp,
              type: change.type,
              columns: change.columns,
              errors: null,
            };
            if (change.type !== 'DELETE') data.record = change.record;
            if (change.type !== 'INSERT') data.old_record = deliveredOldRecord(change);
            this.send(client, { joinRef: null, ref: null, topic: channel.topic, event: 'postgres_changes', payload: { ids, data } });
          })(),
        );
      }
    }
    await Promise.all(deliveries);
  }

  async close(): Promise<void> {
    for (const client of this.clients) client.ws.terminate();
    this.clients.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
