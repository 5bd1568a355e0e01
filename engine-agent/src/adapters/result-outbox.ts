import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { CloudClient } from './cloud-client.js';
import { writeFileDurably } from './durable-file.js';

/** A wipe result waiting for the cloud. */
export interface PendingResult {
  readonly jobId: string;
  readonly body: Record<string, unknown>;
}

/** job ids are UUIDs, optionally suffixed `-N`: anything else never names a file. */
const SAFE_JOB_ID = /^[A-Za-z0-9-]{1,100}$/;

/**
 * Wipe results kept on disk until the cloud took them (DATA_DIR/outbox/<job_id>.json): a
 * result is written, synced and renamed into place before it is first sent, and removed only
 * once the cloud answered 2xx or refused it for good (4xx). A gateway that is down, or a
 * machine that reboots before it comes back, loses nothing: the next delivery round sends it
 * again, and the cloud's job_id idempotency makes the repeat harmless.
 */
export function resultOutbox(dataDir: string) {
  const dir = join(dataDir, 'outbox');
  const file = (jobId: string) => {
    if (!SAFE_JOB_ID.test(jobId)) throw new Error(`unsafe job id for the outbox: ${jobId}`);
    return join(dir, `${jobId}.json`);
  };
  return {
    dir,
    async keep(jobId: string, body: Record<string, unknown>): Promise<void> {
      await writeFileDurably(dir, basename(file(jobId)), JSON.stringify(body));
    },
    async drop(jobId: string): Promise<void> {
      await rm(file(jobId), { force: true });
    },
    async pending(): Promise<PendingResult[]> {
      const names = await readdir(dir).catch(() => [] as string[]);
      const out: PendingResult[] = [];
      for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
        try {
          out.push({ jobId: name.slice(0, -'.json'.length), body: JSON.parse(await readFile(join(dir, name), 'utf8')) as Record<string, unknown> });
        } catch {
          // A torn write never got renamed into place; an unreadable file is left for a person to look at.
        }
      }
      return out;
    },
  };
}

export type ResultOutbox = ReturnType<typeof resultOutbox>;

/** A kept result the cloud settled in a delivery round: taken (with its certificate status) or refused for good. */
export interface SettledResult {
  readonly jobId: string;
  readonly delivered: boolean;
  readonly wipeResultId?: string;
  /** Spec 7's status of the result's certificate; null when the result is not certifiable. */
  readonly certificateStatus?: string | null;
}

/**
 * Sends every kept result once; returns how many the cloud took, refused for good, and still
 * waits on, and tells `settled` about each result that left the outbox (the kiosk follows it).
 */
export async function deliverPending(outbox: ResultOutbox, client: CloudClient, settled?: (r: SettledResult) => void): Promise<{ delivered: number; refused: number; kept: number }> {
  let delivered = 0;
  let refused = 0;
  let kept = 0;
  for (const p of await outbox.pending()) {
    const r = await client.call('wipeResult', p.body as never);
    const retryable = !r.ok && (r.error.kind === 'transport' || (r.error.kind === 'status' && r.error.status >= 500));
    if (retryable) {
      kept += 1;
      continue;
    }
    await outbox.drop(p.jobId);
    if (r.ok) delivered += 1;
    else refused += 1;
    settled?.(r.ok ? { jobId: p.jobId, delivered: true, wipeResultId: r.value.wipe_result_id, certificateStatus: r.value.certificate_status } : { jobId: p.jobId, delivered: false });
  }
  return { delivered, refused, kept };
}
