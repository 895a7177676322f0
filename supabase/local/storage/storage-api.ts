import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerToken, BodyTooLargeError, readBody, readJson as readJsonBody, sendJson } from '../http-util';
import type { JwtKeys } from '../jwt';
import { RestError, type RestClient } from '../rest-client';
import { isValidObjectName, type ObjectStore } from './object-store';

interface Bucket {
  id: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

/**
 * An error in Storage's shape: HTTP 400 (500 for server faults) with the real code in
 * `statusCode`, except an over-size upload, which hosted answers with HTTP 413.
 */
class StorageError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
    readonly httpStatus = statusCode >= 500 ? 500 : 400,
  ) {
    super(message);
  }
}

const storageErrors = {
  bucketNotFound: () => new StorageError(404, 'Bucket not found', 'Bucket not found'),
  objectNotFound: () => new StorageError(404, 'not_found', 'Object not found'),
  duplicate: () => new StorageError(409, 'Duplicate', 'The resource already exists'),
  tooLarge: () => new StorageError(413, 'Payload too large', 'The object exceeded the maximum allowed size', 413),
  mimeType: (type: string) => new StorageError(415, 'invalid_mime_type', `mime type ${type} is not supported`),
  invalidKey: (key: string) => new StorageError(400, 'Invalid Input', `Invalid key: ${key}`),
  invalidJwt: () => new StorageError(400, 'InvalidJWT', 'Invalid JWT'),
  accessDenied: (message: string) => new StorageError(403, 'Unauthorized', message),
  noContent: () => new StorageError(400, 'InvalidRequest', 'No content provided'),
};

/** Whether a MIME type matches a bucket's allowed list (entries like `image/*` allowed). */
export function mimeAllowed(type: string, allowed: string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const t = type.split(';')[0]!.trim().toLowerCase();
  return allowed.some((a) => {
    const rule = a.toLowerCase();
    return rule.endsWith('/*') ? t.startsWith(rule.slice(0, -1)) : t === rule;
  });
}

/** Room for the multipart envelope around a file at the size limit. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

function quoteInValue(v: string): string {
  return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** One row of the list endpoint (a folder has null id, dates and metadata). */
interface ListEntry {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: Record<string, unknown> | null;
}

export interface StorageDeps {
  rest: RestClient;
  jwt: JwtKeys;
  store: ObjectStore;
  anonKey: string;
  serviceRoleKey: string;
}

/** Storage API subset: upload (multipart or raw, x-upsert), download (public/authenticated), delete. */
export class StorageService {
  constructor(private readonly deps: StorageDeps) {}

  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    try {
      const m = /^\/object(?:\/(public|authenticated))?\/([^/]+)(?:\/(.*))?$/.exec(path);
      if (!m) throw new StorageError(404, 'not_found', 'Route not found');
      const [, scope, bucketId, rawName] = m;
      const name = rawName ? decodeURIComponent(rawName) : '';
      const method = req.method ?? 'GET';
      if (!scope && bucketId === 'list' && method === 'POST' && name) return await this.list(req, res, name);
      if (scope === 'public' && (method === 'GET' || method === 'HEAD')) return await this.download(req, res, bucketId!, name, true);
      if (scope && (method === 'GET' || method === 'HEAD')) return await this.download(req, res, bucketId!, name, false);
      if (!scope && (method === 'GET' || method === 'HEAD') && name) return await this.download(req, res, bucketId!, name, false);
      if (!scope && (method === 'POST' || method === 'PUT') && name) return await this.upload(req, res, bucketId!, name, method === 'PUT');
      if (!scope && method === 'DELETE' && name) return await this.removeOne(req, res, bucketId!, name);
      if (!scope && method === 'DELETE' && !name) return await this.removeMany(req, res, bucketId!);
      throw new StorageError(404, 'not_found', 'Route not found');
    } catch (error) {
      if (error instanceof StorageError) {
        return sendJson(res, error.httpStatus, {
          statusCode: String(error.statusCode),
          error: error.error,
          message: error.message,
        });
      }
      console.error('[local stack] storage error', error);
      return sendJson(res, 500, { statusCode: '500', error: 'internal', message: 'Internal server error' });
    }
  }

  /** The caller's token (anon key when none) after checking it is ours. */
  private async callerToken(req: IncomingMessage): Promise<{ token: string; sub: string | null }> {
    const token = bearerToken(req) ?? this.deps.anonKey;
    const claims = await this.deps.jwt.verify(token);
    if (!claims) throw storageErrors.invalidJwt();
    return { token, sub: typeof claims.sub === 'string' ? claims.sub : null };
  }

  private async bucket(id: string): Promise<Bucket> {
    const rows = await this.deps.rest.request<Bucket[]>(
      'GET',
      `/buckets?id=eq.${encodeURIComponent(id)}&select=id,public,file_size_limit,allowed_mime_types`,
      { token: this.deps.serviceRoleKey, schema: 'storage' },
    );
    const bucket = rows[0];
    if (!bucket) throw storageErrors.bucketNotFound();
    return bucket;
  }

  private async readUpload(req: IncomingMessage, limit: number): Promise<{ data: Buffer; contentType: string }> {
    let body: Buffer;
    try {
      body = await readBody(req, limit + MULTIPART_OVERHEAD_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw storageErrors.tooLarge();
      throw error;
    }
    const type = req.headers['content-type'] ?? 'application/octet-stream';
    if (type.startsWith('multipart/form-data')) {
      const form = await new Request('http://local/upload', {
        method: 'POST',
        headers: { 'content-type': type },
        body: new Uint8Array(body),
      }).formData();
      let file: Blob | null = null;
      form.forEach((value) => {
        if (!file && typeof value !== 'string') file = value;
      });
      const found = file as Blob | null;
      if (!found) throw storageErrors.noContent();
      return { data: Buffer.from(await found.arrayBuffer()), contentType: found.type || 'application/octet-stream' };
    }
    return { data: body, contentType: type };
  }

  private async upload(req: IncomingMessage, res: ServerResponse, bucketId: string, name: string, isUpdate: boolean) {
    if (!isValidObjectName(name)) throw storageErrors.invalidKey(name);
    const caller = await this.callerToken(req);
    const bucket = await this.bucket(bucketId);
    const limit = bucket.file_size_limit ?? 50 * 1024 * 1024;
    // Refused before reading when the declared size is over (the body is then drained by Node).
    if (Number(req.headers['content-length'] ?? 0) > limit + MULTIPART_OVERHEAD_BYTES) throw storageErrors.tooLarge();
    const { data, contentType } = await this.readUpload(req, limit);
    if (data.length > limit) throw storageErrors.tooLarge();
    if (!mimeAllowed(contentType, bucket.allowed_mime_types)) throw storageErrors.mimeType(contentType);

    const upsert = isUpdate || req.headers['x-upsert'] === 'true';
    const id = randomUUID();
    const row = {
      id,
      bucket_id: bucketId,
      name,
      owner: caller.sub,
      owner_id: caller.sub,
      metadata: {
        size: data.length,
        mimetype: contentType,
        cacheControl: String(req.headers['cache-control'] ?? 'max-age=3600'),
        lastModified: new Date().toISOString(),
        contentLength: data.length,
        httpStatusCode: 200,
      },
    };
    try {
      // With the caller's JWT: storage.objects' policies decide, as on hosted Supabase.
      await this.deps.rest.request('POST', upsert ? '/objects?on_conflict=bucket_id,name' : '/objects', {
        token: caller.token,
        schema: 'storage',
        body: row,
        prefer: upsert ? 'resolution=merge-duplicates, return=minimal' : 'return=minimal',
      });
    } catch (error) {
      if (error instanceof RestError) {
        if (error.body.code === '23505') throw storageErrors.duplicate();
        if (error.body.code === '42501' || error.status === 401 || error.status === 403) {
          throw storageErrors.accessDenied('new row violates row-level security policy');
        }
      }
      throw error;
    }
    await this.deps.store.put(bucketId, name, { data, contentType });
    sendJson(res, 200, { Id: id, Key: `${bucketId}/${name}` });
  }

  private async download(req: IncomingMessage, res: ServerResponse, bucketId: string, name: string, isPublic: boolean) {
    if (!isValidObjectName(name)) throw storageErrors.objectNotFound();
    if (isPublic) {
      const bucket = await this.bucket(bucketId);
      if (!bucket.public) throw storageErrors.bucketNotFound();
    } else {
      const caller = await this.callerToken(req);
      const rows = await this.deps.rest.request<unknown[]>(
        'GET',
        `/objects?bucket_id=eq.${encodeURIComponent(bucketId)}&name=eq.${encodeURIComponent(name)}&select=id`,
        { token: caller.token, schema: 'storage' },
      );
      if (rows.length === 0) throw storageErrors.objectNotFound();
    }
    const object = await this.deps.store.get(bucketId, name);
    if (!object) throw storageErrors.objectNotFound();
    res.writeHead(200, {
      'content-type': object.contentType,
      'content-length': object.data.length,
      'cache-control': 'no-cache',
      // A stored file is never sniffed into something else (an "image" that is really HTML).
      'x-content-type-options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : object.data);
  }

  /**
   * POST /object/list/<bucket> as Storage's search answers it: the entries one level under
   * `prefix` (a folder: a trailing / is implied), names relative to it, folders with null id and
   * metadata, `search` narrowing by name start, sorted, then offset and limit (default 100).
   * Only the objects the caller's policies let it select are seen.
   */
  private async list(req: IncomingMessage, res: ServerResponse, bucketId: string) {
    const caller = await this.callerToken(req);
    await this.bucket(bucketId);
    const body = await readJsonBody(req);
    const rawPrefix = typeof body.prefix === 'string' ? body.prefix : '';
    const prefix = rawPrefix && !rawPrefix.endsWith('/') ? `${rawPrefix}/` : rawPrefix;
    const search = typeof body.search === 'string' ? body.search : '';
    const limit = Math.min(typeof body.limit === 'number' && body.limit > 0 ? body.limit : 100, 1500);
    const offset = typeof body.offset === 'number' && body.offset > 0 ? body.offset : 0;
    const sortBy = (body.sortBy ?? {}) as { column?: string; order?: string };
    const column = ['updated_at', 'created_at', 'last_accessed_at'].includes(sortBy.column ?? '') ? sortBy.column! : 'name';
    const descending = sortBy.order?.toLowerCase() === 'desc';

    const rows = await this.deps.rest.request<ListEntry[]>(
      'GET',
      `/objects?bucket_id=eq.${encodeURIComponent(bucketId)}&select=id,name,updated_at,created_at,last_accessed_at,metadata`,
      { token: caller.token, schema: 'storage' },
    );
    const start = (prefix + search).toLowerCase();
    const folders = new Map<string, ListEntry>();
    const files: ListEntry[] = [];
    for (const row of rows) {
      if (!row.name.toLowerCase().startsWith(start)) continue;
      const relative = row.name.slice(prefix.length);
      const slash = relative.indexOf('/');
      if (slash === -1) files.push({ ...row, name: relative });
      else {
        const folder = relative.slice(0, slash);
        folders.set(folder, { name: folder, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null });
      }
    }
    const order = (a: string | null, b: string | null) => (descending ? -1 : 1) * String(a ?? '').localeCompare(String(b ?? ''));
    const byName = (a: ListEntry, b: ListEntry) => order(a.name, b.name);
    const entries =
      column === 'name'
        ? [...folders.values(), ...files].sort(byName)
        : [
            ...[...folders.values()].sort(byName),
            ...files.sort((a, b) => order(a[column as keyof ListEntry] as string, b[column as keyof ListEntry] as string)),
          ];
    sendJson(res, 200, entries.slice(offset, offset + limit));
  }

  /** Deletes the named objects the caller's policies allow; returns the deleted rows. */
  private async deleteNames(req: IncomingMessage, bucketId: string, names: string[]) {
    const caller = await this.callerToken(req);
    await this.bucket(bucketId);
    const valid = names.filter(isValidObjectName);
    if (valid.length === 0) return [];
    const deleted = await this.deps.rest.request<Array<{ name: string }>>(
      'DELETE',
      `/objects?bucket_id=eq.${encodeURIComponent(bucketId)}&name=in.(${encodeURIComponent(valid.map(quoteInValue).join(','))})`,
      { token: caller.token, schema: 'storage', prefer: 'return=representation' },
    );
    for (const row of deleted) await this.deps.store.delete(bucketId, row.name);
    return deleted;
  }

  private async removeOne(req: IncomingMessage, res: ServerResponse, bucketId: string, name: string) {
    const deleted = await this.deleteNames(req, bucketId, [name]);
    if (deleted.length === 0) throw storageErrors.objectNotFound();
    sendJson(res, 200, { message: 'Successfully deleted' });
  }

  private async removeMany(req: IncomingMessage, res: ServerResponse, bucketId: string) {
    const body = await readBody(req, 1024 * 1024);
    let prefixes: unknown = [];
    try {
      prefixes = (JSON.parse(body.toString('utf8') || '{}') as { prefixes?: unknown }).prefixes ?? [];
    } catch {
      prefixes = [];
    }
    const names = Array.isArray(prefixes) ? prefixes.filter((p): p is string => typeof p === 'string') : [];
    sendJson(res, 200, await this.deleteNames(req, bucketId, names));
  }
}
