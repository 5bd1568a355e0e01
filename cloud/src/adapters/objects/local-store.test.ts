import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localObjectStore, putChunks, type LocalObjectStore } from './local-store.js';

/** The streamed put and read a lot ZIP of any size is written and served with (issue 31 item 2). */
describe('local object store: streams', () => {
  let root: string;
  let store: LocalObjectStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'objects-'));
    store = localObjectStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  async function* chunks(n: number, size: number) {
    for (let i = 0; i < n; i++) yield new Uint8Array(size).fill(i % 256);
  }
  const collect = async (stream: NodeJS.ReadableStream) => {
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
    return Buffer.concat(parts);
  };

  it('stores chunks as they come and reads them back as one object, atomically under its key', async () => {
    await store.putStream('lot-exports/acct/a.zip', chunks(50, 4096));
    const bytes = await collect((await store.readStream('lot-exports/acct/a.zip'))!);
    expect(bytes.length).toBe(50 * 4096);
    expect(bytes[4096 * 7]).toBe(7);
    expect(Buffer.compare(bytes, Buffer.from((await store.get('lot-exports/acct/a.zip'))!))).toBe(0);
    expect(readdirSync(join(root, '.tmp'))).toEqual([]);
  });

  it('a stream that fails leaves no object and no temporary file', async () => {
    async function* failing() {
      yield new Uint8Array(10);
      throw new Error('source failed');
    }
    await expect(store.putStream('k/b.zip', failing())).rejects.toThrow('source failed');
    expect(await store.exists('k/b.zip')).toBe(false);
    expect(readdirSync(join(root, '.tmp'))).toEqual([]);
  });

  it('an object that is not there reads as undefined; remove deletes, twice harmlessly', async () => {
    expect(await store.readStream('k/none.zip')).toBeUndefined();
    await store.put('k/c.pdf', new Uint8Array([1, 2, 3]));
    await store.remove('k/c.pdf');
    await store.remove('k/c.pdf');
    expect(await store.exists('k/c.pdf')).toBe(false);
  });

  it('putChunks gives a store without putStream the bytes collected', async () => {
    const plain = { put: store.put, get: store.get, exists: store.exists };
    await putChunks(plain, 'k/d.zip', chunks(3, 10));
    expect((await store.get('k/d.zip'))!.length).toBe(30);
  });
});
