import { existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { readBody, sendJson } from './http-util';

type NetlifyHandler = (req: Request, context: Record<string, unknown>) => Response | Promise<Response>;

/**
 * Runs the repo's Netlify Functions (v2: `export default async (req: Request, context) => Response`)
 * at /.netlify/functions/<name>, so the SPA uses the same relative URL locally and on Netlify.
 * A function's module is re-imported when its own file changes (edit-and-retry in development);
 * edits to modules it imports need a restart of the stack.
 */
export class FunctionsHost {
  constructor(
    private readonly functionsDir: string,
    private readonly publicUrl: () => string,
  ) {}

  private resolve(name: string): string | null {
    for (const ext of ['.ts', '.mts', '.js', '.mjs']) {
      for (const candidate of [
        `${this.functionsDir}/${name}${ext}`,
        `${this.functionsDir}/${name}/${name}${ext}`,
        `${this.functionsDir}/${name}/index${ext}`,
      ]) {
        if (existsSync(candidate)) return candidate;
      }
    }
    return null;
  }

  async handle(req: IncomingMessage, res: ServerResponse, name: string, url: URL): Promise<void> {
    if (!/^[a-z0-9][a-z0-9_-]*$/i.test(name)) {
      return sendJson(res, 404, { error: `No function named "${name}"` });
    }
    const file = this.resolve(name);
    if (!file) {
      return sendJson(res, 404, {
        error: `Function "${name}" not found: expected netlify/functions/${name}.ts exporting a default handler.`,
      });
    }
    // A whole number: a fractional mtime (`?v=…123.988`) reads as the extension `.988` to the
    // transformer, which then parses the TypeScript as JavaScript.
    const mod = (await import(`${pathToFileURL(file).href}?v=${Math.floor(statSync(file).mtimeMs)}`)) as { default?: unknown };
    if (typeof mod.default !== 'function') {
      return sendJson(res, 500, { error: `netlify/functions/${name} has no default export (a Functions v2 handler).` });
    }
    const handler = mod.default as NetlifyHandler;
    const method = req.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    }
    const request = new Request(`${this.publicUrl()}${url.pathname}${url.search}`, {
      method,
      headers,
      body: body ? new Uint8Array(body) : undefined,
    });
    const context = {
      ip: req.socket.remoteAddress ?? '127.0.0.1',
      requestId: crypto.randomUUID(),
      params: {},
      site: { url: this.publicUrl(), name: 'local' },
      deploy: { context: 'dev', id: 'local' },
      geo: {},
      cookies: { get: () => undefined, set: () => undefined, delete: () => undefined },
      waitUntil: (p: Promise<unknown>) => void p.catch(() => undefined),
    };
    let response: Response;
    try {
      response = await handler(request, context);
    } catch (error) {
      console.error(`[local stack] function ${name} threw`, error);
      return sendJson(res, 500, { error: `Function "${name}" threw: ${error instanceof Error ? error.message : String(error)}` });
    }
    const out: Record<string, string> = {};
    response.headers.forEach((v, k) => (out[k] = v));
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  }
}

/** Netlify's `Netlify.env` global, backed by process.env, for functions that use it. */
export function installNetlifyGlobal(): void {
  const g = globalThis as { Netlify?: unknown };
  if (g.Netlify) return;
  g.Netlify = {
    env: {
      get: (k: string) => process.env[k],
      has: (k: string) => process.env[k] !== undefined,
      set: (k: string, v: string) => void (process.env[k] = v),
      delete: (k: string) => void delete process.env[k],
      toObject: () => ({ ...process.env }),
    },
  };
}
