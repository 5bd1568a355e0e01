import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loopWith, removeDir } from './loop.js';
import { startCloudStack, type CloudStack } from './stack.js';

/**
 * What a test of `erasure-agent run` against the real cloud and gateway stands on: the stack with
 * one account `account` and its device token (quota 10) in `work`, the loop devices the test
 * attaches, and the agent's environment. The test calls `start` in `beforeAll` and `stop` in
 * `afterAll`; `stop` also detaches every loop device and removes `work`.
 */
export function agentRunStack(work: string, account: string) {
  let stack: CloudStack | undefined;
  let jti = '';
  const tokenFile = join(work, 'device-token');
  const loops: Array<{ cleanup: () => void }> = [];
  const started = () => {
    if (!stack) throw new Error('agentRunStack: start() first');
    return stack;
  };
  return {
    async start(): Promise<void> {
      stack = await startCloudStack(work);
      ({ jti } = stack.mintToken(tokenFile, { account, quota: 10 }));
    },
    async stop(): Promise<void> {
      await stack?.stop();
      for (const l of loops) l.cleanup();
      if (work) removeDir(work);
    },
    /** The cloud's environment, for its admin CLI. */
    get cloudEnv(): NodeJS.ProcessEnv {
      return started().cloudEnv;
    },
    get gatewayUrl(): string {
      return started().gatewayUrl;
    },
    /** The id of the account's device token. */
    get jti(): string {
      return jti;
    },
    /** The agent's environment: this process's, with the gateway (this stack's unless given), the token and a DATA_DIR in `work`. */
    agentEnv(gatewayUrl = started().gatewayUrl): NodeJS.ProcessEnv {
      return { ...process.env, ERASURE_GATEWAY_URL: gatewayUrl, ERASURE_DEVICE_TOKEN_FILE: tokenFile, DATA_DIR: join(work, 'agent') };
    },
    /** Attaches a loop device over a new file of `content` in `work`; detached by `stop`. */
    disk(name: string, content: Buffer): { file: string; device: string } {
      const l = loopWith(work, name, content);
      loops.push(l);
      return l;
    },
    /** Runs a query on the cloud's SQLite file, read-only, and returns its rows. */
    cloudRows<T = Record<string, unknown>>(sql: string): T[] {
      const db = new Database(started().cloudDb, { readonly: true });
      try {
        return db.prepare(sql).all() as T[];
      } finally {
        db.close();
      }
    },
  };
}
