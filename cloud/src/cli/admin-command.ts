import { systemClock } from '../adapters/clock.js';
import { openStore, storeConfig } from '../adapters/sql/open-store.js';
import { loadConfig } from '../config.js';
import { join } from 'node:path';
import { copyObjects } from '../adapters/objects/copy-objects.js';
import { s3ObjectStore, S3StoreCheckError } from '../adapters/objects/s3-store.js';
import type { CloudConfig } from '../config.js';
import { runAdmin, UsageError, type Flags } from './admin.js';

/**
 * `erasure-cloud admin <command> [--flags]` from an environment: the configured store and keys,
 * the one command, the store closed after. The JSON document it returns is what the binary
 * prints. Tests call it in-process, so they do not pay a process start per command.
 */
export async function adminCommand(env: NodeJS.ProcessEnv, command: string | undefined, flags: Flags): Promise<unknown> {
  const config = loadConfig(env);
  if (command === 'copy-objects') return copyObjectsCommand(config, flags);
  const db = await openStore(storeConfig(env, config.DATA_DIR));
  try {
    return await runAdmin(
      {
        db,
        clock: systemClock,
        deviceTokenPrivateKey: config.DEVICE_TOKEN_PRIVATE_KEY,
        outbound: config.outbound,
        webhookSecretRolloverMs: config.webhookSecretRolloverMs,
        tokenDefaults: config.tokenDefaults,
      },
      command,
      flags,
    );
  } finally {
    await db.close();
  }
}

/**
 * `admin copy-objects --to s3`: the local `DATA_DIR/objects` into the bucket the S3_* settings
 * name (OBJECT_STORE=s3), for moving an existing deployment. A progress line every 100 objects
 * on stderr; the counts are the answer.
 */
async function copyObjectsCommand(config: CloudConfig, flags: Flags): Promise<unknown> {
  if (flags.to !== 's3') throw new UsageError('copy-objects needs --to s3');
  if (config.objectStore.kind !== 's3') throw new UsageError('copy-objects --to s3 needs OBJECT_STORE=s3 and the S3_* settings of the target bucket');
  const bucket = s3ObjectStore(config.objectStore.s3);
  try {
    await bucket.check().catch((error: unknown) => {
      throw error instanceof S3StoreCheckError ? new UsageError(`object store unusable: ${error.message}`) : error;
    });
    const root = join(config.DATA_DIR, 'objects');
    const result = await copyObjects(root, bucket, (done, r) => {
      if (done % 100 === 0) process.stderr.write(`copy-objects: ${done} objects, ${r.copied} copied, ${r.skipped} already there\n`);
    });
    process.stderr.write(`copy-objects: done, ${result.total} objects, ${result.copied} copied, ${result.skipped} already there; nothing deleted locally\n`);
    return { from: root, to: bucket.bucket, ...result };
  } finally {
    bucket.close();
  }
}
