import { GATEWAY_SCHEMA } from './config';

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: { code?: string; message?: string; details?: string | null; hint?: string | null },
  ) {
    super(body.message ?? `PostgREST answered ${status}`);
  }
}

/**
 * The gateway's own database access. Everything goes through PostgREST (the only client of the
 * PGlite socket), either as service_role into the gateway schema, or with a caller's JWT so that
 * the database's policies decide (storage objects, realtime visibility).
 */
export class RestClient {
  constructor(
    private readonly baseUrl: () => string,
    private readonly serviceRoleKey: string,
  ) {}

  /** Calls an RPC as service_role: a `local_gateway` one unless another schema is named. */
  async rpc<T>(fn: string, args: Record<string, unknown>, schema: string = GATEWAY_SCHEMA): Promise<T> {
    return this.request<T>('POST', `/rpc/${fn}`, { token: this.serviceRoleKey, schema, body: args });
  }

  async request<T>(
    method: string,
    path: string,
    opts: { token: string; schema: string; body?: unknown; prefer?: string; single?: boolean },
  ): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${opts.token}`,
      [method === 'GET' || method === 'HEAD' ? 'accept-profile' : 'content-profile']: opts.schema,
      accept: opts.single ? 'application/vnd.pgrst.object+json' : 'application/json',
    };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.prefer) headers.prefer = opts.prefer;
    const res = await fetch(`${this.baseUrl()}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (!res.ok) throw new RestError(res.status, parsed ?? {});
    return parsed as T;
  }
}
