import type { ObjectStore } from './local-store.js';

/**
 * A put the object store did not take (a bucket down, a disk full). The message names the store,
 * so the job's `last_error` and the worker's log line say where an operator should look.
 */
export class ObjectStoreWriteError extends Error {
  readonly code = 'object_store_write_failed';
  constructor(store: ObjectStore, cause: unknown) {
    super(`object store ${store.where ?? '(unnamed)'} did not take the PDFs: ${cause instanceof Error ? cause.message || cause.name : String(cause)}`, { cause });
    this.name = 'ObjectStoreWriteError';
  }
}
