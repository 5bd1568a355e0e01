import { systemClock } from '../adapters/clock.js';
import { openStore, storeConfig } from '../adapters/sql/open-store.js';
import { loadConfig } from '../config.js';
import { runAdmin, type Flags } from './admin.js';

/**
 * `erasure-cloud admin <command> [--flags]` from an environment: the configured store and keys,
 * the one command, the store closed after. The JSON document it returns is what the binary
 * prints. Tests call it in-process, so they do not pay a process start per command.
 */
export async function adminCommand(env: NodeJS.ProcessEnv, command: string | undefined, flags: Flags): Promise<unknown> {
  const config = loadConfig(env);
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
