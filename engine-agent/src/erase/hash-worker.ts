import { Worker } from 'node:worker_threads';
import type { SharedSlots } from './keystream-pool.js';

// The worker body is source text run with `eval: true`, as the keystream pool's is: the same
// string works from src/ under vitest and from dist/. It owns the one SHA-256 stream and reads
// each chunk in place from the shared slot it is told about, so nothing is copied.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { slots, size } = workerData;
const views = slots.map((s) => Buffer.from(s.sab, s.pad, size));
const hash = createHash('sha256');
parentPort.on('message', (job) => {
  try {
    if (job.op === 'update') {
      hash.update(views[job.slot].subarray(0, job.length));
      parentPort.postMessage({ id: job.id, ok: true });
    } else {
      parentPort.postMessage({ id: job.id, ok: true, digest: hash.digest('hex') });
    }
  } catch (error) {
    parentPort.postMessage({ id: job.id, ok: false, message: String((error && error.message) || error) });
  }
});
`;

interface Reply {
  readonly id: number;
  readonly ok: boolean;
  readonly digest?: string;
  readonly message?: string;
}

/**
 * One SHA-256 stream on a dedicated worker thread, fed shared-memory slots in offset order.
 * A verification's hash is a single sequential stream (spec: `verification_hash`), so it cannot
 * be split; moving it off the main thread lets it run beside the reads and the comparison, up to
 * the speed of one SHA-256 stream. Messages to one worker are handled in the order posted, which
 * is what keeps the stream in offset order. A worker that fails or exits rejects every pending
 * and later call: a verification never reports a hash it did not finish.
 */
export class HashWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private failure: Error | undefined;

  constructor(slots: SharedSlots) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { slots: slots.shared, size: slots.size } });
    this.worker.on('message', (reply: Reply) => {
      const job = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.ok) job?.resolve(reply);
      else job?.reject(new Error(`hash worker: ${reply.message ?? 'failed'}`));
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`hash worker exited with code ${code}`)));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const job of this.pending.values()) job.reject(this.failure);
    this.pending.clear();
  }

  private send(job: { op: 'update'; slot: number; length: number } | { op: 'digest' }): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...job });
    });
  }

  /** Appends the first `length` bytes of slot `slot`; resolves once they are hashed (the slot is free again). */
  async update(slot: number, length: number): Promise<void> {
    await this.send({ op: 'update', slot, length });
  }

  /** The hex digest of everything appended, in the order appended. */
  async digest(): Promise<string> {
    const reply = await this.send({ op: 'digest' });
    if (typeof reply.digest !== 'string') throw new Error('hash worker: no digest');
    return reply.digest;
  }

  /** Stops the worker; pending calls are rejected. */
  async close(): Promise<void> {
    this.fail(new Error('hash worker closed'));
    await this.worker.terminate();
  }

  /** Test seam: kills the thread as a crash would. */
  async crash(): Promise<void> {
    await this.worker.terminate();
  }
}
