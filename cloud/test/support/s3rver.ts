import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
// @ts-expect-error s3rver ships no types; the test uses only run() and close().
import S3rver from 's3rver';
import type { S3StoreSettings } from '../../src/adapters/objects/s3-store.js';

/** s3rver's built-in account: the only credentials it accepts. */
export const S3RVER_KEY = 'S3RVER';

export interface RunningS3 {
  /** Settings that reach `bucket` on this server, as an operator would give them. */
  settings: S3StoreSettings;
  /** Stops answering (the port closed), keeping the objects: a store that is down. */
  pause(): Promise<void>;
  /** Answers again on the same port, with the same objects. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A throwaway S3 server over HTTP on a free loopback port, its objects in a temporary folder:
 * the bucket the adapter talks to in tests, as the PostgreSQL tests run a throwaway cluster.
 */
export async function startS3(bucket = 'certificates'): Promise<RunningS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const serverOn = (port: number) => atomicPuts(new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] }));
  let server = serverOn(0);
  const address = (await server.run()) as AddressInfo;
  let running = true;
  return {
    settings: {
      endpoint: `http://127.0.0.1:${address.port}`,
      region: 'us-east-1',
      bucket,
      accessKeyId: S3RVER_KEY,
      secretAccessKey: S3RVER_KEY,
      forcePathStyle: true,
    },
    async pause() {
      await server.close();
      running = false;
    },
    async resume() {
      server = serverOn(address.port);
      await server.run();
      running = true;
    },
    async stop() {
      if (running) await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The slice of s3rver's filesystem store that {@link atomicPuts} replaces and uses. */
interface S3rverStore {
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
}
interface S3rverObject {
  bucket: string;
  key: string;
  content: NodeJS.ReadableStream | Buffer;
  metadata: Record<string, string>;
}

/**
 * Gives s3rver S3's PUT semantics: the object appears whole once its last byte is in, or not at
 * all. s3rver 3.7.1 writes the body straight into the object's file as it arrives, so a client
 * cut off mid-upload (a worker SIGKILLed) leaves the first half behind as the object, which no
 * S3 does (AWS, MinIO, Ceph RGW and Garage all write aside and commit on the full Content-Length).
 * Tests of what the cloud leaves in a bucket after a crash must run against the real semantics.
 */
function atomicPuts<T extends { store: S3rverStore }>(server: T): T {
  const { store } = server;
  store.putObject = async (object) => {
    const target = store.getResourcePath(object.bucket, object.key, 'object');
    // Beside the object (same file system, so the rename is atomic), under a name listings skip.
    const incoming = `${target}.incoming-${randomUUID()}`;
    const md5 = createHash('md5');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    await mkdir(dirname(target), { recursive: true });
    try {
      const body = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
      // A request body cut short (the client gone before Content-Length bytes) rejects here as a
      // premature close, so only a whole body is renamed over the key.
      await pipeline(body, count, createWriteStream(incoming));
      await rename(incoming, target);
    } catch (error) {
      await rm(incoming, { force: true });
      throw error;
    }
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
  return server;
}
