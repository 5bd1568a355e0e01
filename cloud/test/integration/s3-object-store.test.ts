import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ObjectStore, S3StoreCheckError, type S3ObjectStore } from '../../src/adapters/objects/s3-store.js';
import { startS3, type RunningS3 } from '../support/s3rver.js';

/** Issue 33 item 1: the S3 adapter behind `ObjectStore`, over the wire to a real S3 server. */
describe('S3 object store against s3rver', () => {
  let s3: RunningS3;
  let store: S3ObjectStore;
  beforeAll(async () => {
    s3 = await startS3();
    store = s3ObjectStore(s3.settings);
  });
  afterAll(async () => {
    store.close();
    await s3.stop();
  });

  async function* chunks(n: number, size: number) {
    for (let i = 0; i < n; i++) yield new Uint8Array(size).fill(i % 256);
  }
  const collect = async (stream: NodeJS.ReadableStream) => {
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
    return Buffer.concat(parts);
  };

  it('a put under a key reads back byte for byte, and a second put of the same key replaces it', async () => {
    await store.put('certificates/1/a.pdf', new Uint8Array([1, 2, 3]));
    await store.put('certificates/1/a.pdf', new Uint8Array([4, 5, 6, 7]));
    expect(Array.from((await store.get('certificates/1/a.pdf'))!)).toEqual([4, 5, 6, 7]);
    expect(await store.exists('certificates/1/a.pdf')).toBe(true);
  });

  it('an object that is not there reads as undefined and does not exist; remove deletes, twice harmlessly', async () => {
    expect(await store.get('certificates/1/none.pdf')).toBeUndefined();
    expect(await store.readStream('certificates/1/none.pdf')).toBeUndefined();
    expect(await store.exists('certificates/1/none.pdf')).toBe(false);
    await store.put('certificates/1/b.pdf', new Uint8Array([9]));
    await store.remove('certificates/1/b.pdf');
    await store.remove('certificates/1/b.pdf');
    expect(await store.exists('certificates/1/b.pdf')).toBe(false);
  });

  it('a stream larger than one part is stored as one object, in order', async () => {
    // 18 MiB: three multipart parts of 8, 8 and 2 MiB.
    await store.putStream('lot-exports/1/a.zip', chunks(18, 1024 * 1024));
    const bytes = await collect((await store.readStream('lot-exports/1/a.zip'))!);
    expect(bytes.length).toBe(18 * 1024 * 1024);
    expect(bytes[1024 * 1024 * 9]).toBe(9);
    expect(bytes[1024 * 1024 * 17]).toBe(17);
  });

  it('a stream that fails mid-upload leaves no object under its key', async () => {
    async function* failing() {
      yield* chunks(9, 1024 * 1024);
      throw new Error('source failed');
    }
    await expect(store.putStream('lot-exports/1/b.zip', failing())).rejects.toThrow('source failed');
    expect(await store.exists('lot-exports/1/b.zip')).toBe(false);
  });

  it('a key that could escape the store is refused before any request', async () => {
    await expect(store.put('../escape', new Uint8Array([1]))).rejects.toThrow('invalid object key');
  });

  it('a presigned GET URL serves the object to a client without credentials', async () => {
    const pdf = Buffer.from('%PDF-1.7 presigned');
    await store.put('certificates/1/c.pdf', pdf);
    const url = await store.presignGet('certificates/1/c.pdf', 300);
    expect(url).toContain('X-Amz-Expires=300');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(createHash('sha256').update(body).digest('hex')).toBe(createHash('sha256').update(pdf).digest('hex'));
  });

  it('the start check passes on a reachable, writable bucket', async () => {
    await expect(store.check()).resolves.toBeUndefined();
  });

  it('the start check names S3_BUCKET when the bucket does not exist', async () => {
    const wrong = s3ObjectStore({ ...s3.settings, bucket: 'no-such-bucket' });
    await expect(wrong.check()).rejects.toMatchObject({ setting: 'S3_BUCKET' });
    wrong.close();
  });

  // s3rver does not verify V4 signatures, so a wrong key id stands for refused credentials here.
  it('the start check names the credentials when the bucket refuses them', async () => {
    const wrong = s3ObjectStore({ ...s3.settings, accessKeyId: 'NOT-A-KEY' });
    const error = await wrong.check().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(S3StoreCheckError);
    expect((error as S3StoreCheckError).message).toContain('S3_SECRET_ACCESS_KEY');
    wrong.close();
  });

  it('the start check names S3_ENDPOINT when nothing answers there', async () => {
    const wrong = s3ObjectStore({ ...s3.settings, endpoint: 'http://127.0.0.1:1' });
    await expect(wrong.check()).rejects.toMatchObject({ setting: 'S3_ENDPOINT' });
    wrong.close();
  });
});
