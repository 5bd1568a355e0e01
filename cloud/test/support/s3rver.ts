import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  const serverOn = (port: number) => new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] });
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
