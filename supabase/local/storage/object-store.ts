import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

export interface StoredObject {
  data: Buffer;
  contentType: string;
}

/** Where object bytes live: a folder under the data dir, or memory for tests. */
export interface ObjectStore {
  put(bucket: string, name: string, object: StoredObject): Promise<void>;
  get(bucket: string, name: string): Promise<StoredObject | null>;
  delete(bucket: string, name: string): Promise<void>;
}

/** Object names are paths inside their bucket: no empty, '.' or '..' segments, no backslashes. */
export function isValidObjectName(name: string): boolean {
  if (!name || name.length > 1024 || name.includes('\\') || name.includes('\0')) return false;
  return name.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

export class MemoryObjectStore implements ObjectStore {
  private objects = new Map<string, StoredObject>();

  put(bucket: string, name: string, object: StoredObject): Promise<void> {
    this.objects.set(`${bucket}/${name}`, object);
    return Promise.resolve();
  }

  get(bucket: string, name: string): Promise<StoredObject | null> {
    return Promise.resolve(this.objects.get(`${bucket}/${name}`) ?? null);
  }

  delete(bucket: string, name: string): Promise<void> {
    this.objects.delete(`${bucket}/${name}`);
    return Promise.resolve();
  }
}

/** Files under `<root>/<bucket>/<name>`, with the content type in a `.meta.json` beside each. */
export class DiskObjectStore implements ObjectStore {
  constructor(private readonly root: string) {}

  private path(bucket: string, name: string): string {
    const root = resolve(this.root);
    const full = resolve(join(root, bucket, name));
    if (!full.startsWith(root + sep)) throw new Error('Object path escapes the storage folder');
    return full;
  }

  async put(bucket: string, name: string, object: StoredObject): Promise<void> {
    const file = this.path(bucket, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, object.data);
    await writeFile(`${file}.meta.json`, JSON.stringify({ contentType: object.contentType }));
  }

  async get(bucket: string, name: string): Promise<StoredObject | null> {
    const file = this.path(bucket, name);
    try {
      const [data, meta] = await Promise.all([readFile(file), readFile(`${file}.meta.json`, 'utf8')]);
      const { contentType } = JSON.parse(meta) as { contentType?: string };
      return { data, contentType: contentType ?? 'application/octet-stream' };
    } catch {
      return null;
    }
  }

  async delete(bucket: string, name: string): Promise<void> {
    const file = this.path(bucket, name);
    await rm(file, { force: true });
    await rm(`${file}.meta.json`, { force: true });
  }
}
