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
  stop(): Promise<void>;
}

/**
 * A throwaway S3 server over HTTP on a free loopback port, its objects in a temporary folder:
 * the bucket the adapter talks to in tests, as the PostgreSQL tests run a throwaway cluster.
 */
export async function startS3(bucket = 'certificates'): Promise<RunningS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = (await server.run()) as AddressInfo;
  return {
    settings: {
      endpoint: `http://127.0.0.1:${address.port}`,
      region: 'us-east-1',
      bucket,
      accessKeyId: S3RVER_KEY,
      secretAccessKey: S3RVER_KEY,
      forcePathStyle: true,
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
