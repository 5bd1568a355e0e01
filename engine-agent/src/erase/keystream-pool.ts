import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { blockdev } from '../adapters/blockdev.js';

/**
 * I/O buffers that worker threads can fill or check in place: SharedArrayBuffer memory, sliced
 * so each slot starts on an `alignment` boundary (O_DIRECT needs aligned addresses; V8 gives no
 * alignment guarantee, so the slice offset is computed from the real address).
 */
export interface SharedSlots {
  readonly buffers: readonly Buffer[];
  readonly shared: ReadonlyArray<{ readonly sab: SharedArrayBuffer; readonly pad: number }>;
  readonly size: number;
}

/** Allocates `count` aligned slots of `size` bytes in shared memory. */
export function sharedSlots(count: number, size: number, alignment: number): SharedSlots {
  const addon = blockdev();
  const shared = Array.from({ length: count }, () => {
    const sab = new SharedArrayBuffer(size + alignment);
    const misalign = addon.addressMod(Buffer.from(sab, 0, alignment)) % alignment;
    return { sab, pad: misalign === 0 ? 0 : alignment - misalign };
  });
  return { buffers: shared.map(({ sab, pad }) => Buffer.from(sab, pad, size)), shared, size };
}

// The worker body is source text run with `eval: true`: the same string works from src/ under
// vitest and from dist/ (a separate .ts worker file would not load without a TS loader).
// Each job regenerates the AES-128-CTR keystream for [offset, offset + length): the counter is
// offset / 16, so any chunk can be produced independently of the others (see pattern.ts).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createCipheriv } = require('node:crypto');
const { seed, slots, size } = workerData;
const views = slots.map((s) => Buffer.from(s.sab, s.pad, size));
// 1 MiB pieces: each piece is copied or compared while it is still in cache (measured ~25 %
// faster than one 4 MiB update); the counter carries on across pieces inside one cipher.
const PIECE = Math.min(size, 1024 * 1024);
const zeros = Buffer.alloc(PIECE);
parentPort.on('message', (job) => {
  try {
    const iv = Buffer.alloc(16);
    iv.writeBigUInt64BE(BigInt(job.offset / 16), 8);
    const cipher = createCipheriv('aes-128-ctr', seed, iv);
    const view = views[job.slot];
    let equal = true;
    for (let at = 0; at < job.length; at += PIECE) {
      const length = Math.min(PIECE, job.length - at);
      const stream = cipher.update(length === PIECE ? zeros : zeros.subarray(0, length));
      if (job.op === 'fill') stream.copy(view, at);
      else if (equal && !stream.equals(view.subarray(at, at + length))) equal = false;
    }
    parentPort.postMessage({ id: job.id, ok: true, equal });
  } catch (error) {
    parentPort.postMessage({ id: job.id, ok: false, message: String(error && error.message || error) });
  }
});
`;

interface Reply {
  readonly id: number;
  readonly ok: boolean;
  readonly equal?: boolean;
  readonly message?: string;
}

/** Freed cipher output stays in the heap up to these sizes (see tuneHeap in blockdev.c). */
const HEAP_TRIM_BYTES = 256 * 1024 * 1024;
const HEAP_MMAP_BYTES = 32 * 1024 * 1024;

/** Default worker count: two, or one on a single-core machine (the main thread drives the I/O). */
export const defaultKeystreamWorkers = (): number => Math.max(1, Math.min(2, availableParallelism()));

/**
 * Worker threads that fill shared slots with a PRNG pattern's keystream, or compare a slot
 * against it, so keystream generation runs on other cores while the main thread keeps direct
 * I/O in flight and hashes. A worker failure rejects every pending job: an erase never proceeds
 * on a buffer whose content is unknown.
 */
export class KeystreamPool {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private readonly load: number[];
  private nextId = 0;
  private failure: Error | undefined;

  constructor(seed: Buffer, slots: SharedSlots, workers = defaultKeystreamWorkers()) {
    blockdev().tuneHeap(HEAP_TRIM_BYTES, HEAP_MMAP_BYTES);
    const workerData = { seed: new Uint8Array(seed), slots: slots.shared, size: slots.size };
    this.load = Array.from({ length: workers }, () => 0);
    this.workers = this.load.map((_, index) => {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
      worker.on('message', (reply: Reply) => {
        this.load[index] = (this.load[index] ?? 1) - 1;
        const job = this.pending.get(reply.id);
        this.pending.delete(reply.id);
        if (reply.ok) job?.resolve(reply);
        else job?.reject(new Error(`keystream worker: ${reply.message ?? 'failed'}`));
      });
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => code !== 0 && this.fail(new Error(`keystream worker exited with code ${code}`)));
      return worker;
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }

  private send(op: 'fill' | 'check', slot: number, offset: number, length: number): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    if (offset % 16 !== 0) return Promise.reject(new RangeError(`PRNG offsets are 16-byte aligned, got ${offset}`));
    // Least-loaded worker: chunks finish in roughly issue order, which the pipelines rely on.
    let index = 0;
    for (let i = 1; i < this.load.length; i += 1) if ((this.load[i] ?? 0) < (this.load[index] ?? 0)) index = i;
    this.load[index] = (this.load[index] ?? 0) + 1;
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.workers[index]?.postMessage({ id, op, slot, offset, length });
    });
  }

  /** Writes the keystream of [offset, offset + length) into slot `slot`. */
  async fill(slot: number, offset: number, length: number): Promise<void> {
    await this.send('fill', slot, offset, length);
  }

  /** True when slot `slot` holds exactly the keystream of [offset, offset + length). */
  async matches(slot: number, offset: number, length: number): Promise<boolean> {
    return (await this.send('check', slot, offset, length)).equal === true;
  }

  /** Stops the workers; pending jobs are rejected. */
  async close(): Promise<void> {
    this.fail(new Error('keystream pool closed'));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
