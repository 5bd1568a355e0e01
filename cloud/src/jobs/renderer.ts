import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Branding } from '../domain/branding/branding.js';
import type { CertificateContent } from '../domain/certificates/certificate-content.js';
import type { FontFiles, FontSource } from '../domain/certificates/fonts.js';
import type { PdfSigner } from '../domain/certificates/pdf-signing-certificate.js';
import { renderCertificatePdf } from '../domain/certificates/render-certificate.js';
import { renderErasureReportPdf } from '../domain/certificates/render-report.js';
import type { ErasureReportData } from '../domain/certificates/report-data.js';
import type { Language } from '../domain/certificates/i18n/wording.js';

/** Everything both documents of one certificate are rendered from. */
export interface RenderInput {
  content: CertificateContent;
  signature: string;
  report: ErasureReportData;
  /** The deployment's PDF signer at render time; both documents are signed with it. */
  pdfSigner: PdfSigner;
  /** The issuing account's logo and company details at render time (issue 31 item 7); none: unbranded. */
  branding?: Branding | null;
  /** The language fixed on the certificate row when its job first ran (issue 31 item 7 part B); none: English. */
  language?: Language;
}

/** Both PDFs of one certificate. */
export interface RenderedPair {
  certificate: Uint8Array;
  report: Uint8Array;
}

/** Renders certificate + report; the job does not care on which thread. */
export interface CertificateRenderer {
  /** Rejects as soon as `signal` aborts (a stopping worker does not wait for the pages). */
  render(input: RenderInput, signal?: AbortSignal): Promise<RenderedPair>;
  close(): Promise<void>;
}

/** Renders on the calling thread: tests, the bench baseline, one-off tools. */
export function inProcessRenderer(fonts: FontSource): CertificateRenderer {
  return {
    async render({ content, signature, report, pdfSigner, branding, language }, signal) {
      signal?.throwIfAborted();
      const certificate = await renderCertificatePdf(content, { fonts, signature, pdfSigner, branding, language });
      signal?.throwIfAborted();
      return { certificate, report: await renderErasureReportPdf(report, { fonts, pdfSigner, branding, language }) };
    },
    async close() {},
  };
}

/**
 * Render threads worth starting: rendering is pure CPU, one document at a time per thread. A
 * worker inside `serve` leaves one core to the event loop, so a burst of certificates never
 * slows the device-facing API; a dedicated `erasure-cloud worker` uses every core (up to 4).
 */
export const defaultRenderThreads = (inServer: boolean): number =>
  Math.max(1, Math.min(4, availableParallelism() - (inServer ? 1 : 0)));

type Reply = { id: number; certificate: Uint8Array; report: Uint8Array } | { id: number; error: string };
interface Task {
  id: number;
  input: RenderInput;
  resolve(pair: RenderedPair): void;
  reject(error: Error): void;
}

/**
 * Renders on a pool of worker threads (`render-thread.js`), so PDF rendering neither blocks the
 * server's event loop (the in-process worker of `serve`) nor is limited to one core. Each thread
 * parses the fonts once. `ready` rejects when a thread cannot start (e.g. fonts missing), so the
 * process fails at start. A thread that dies fails its task (the job retries) and is replaced.
 */
export function threadPoolRenderer(options: { size: number; fontFiles: FontFiles }): CertificateRenderer & { ready: Promise<void> } {
  const script = new URL('./render-thread.js', import.meta.url);
  const queue: Task[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Task>();
  let nextId = 1;
  let closed = false;

  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const task = queue.shift()!;
      busy.set(worker, task);
      worker.postMessage({ id: task.id, input: task.input });
    }
  };

  const spawnThread = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const worker = new Worker(script, { workerData: { fontFiles: options.fontFiles } });
      worker.unref();
      worker.once('message', (first: { ready?: true; fatal?: string }) => {
        if (first.fatal) return reject(new Error(first.fatal));
        worker.on('message', (reply: Reply) => {
          const task = busy.get(worker);
          busy.delete(worker);
          idle.push(worker);
          if (task) {
            if ('error' in reply) task.reject(new Error(reply.error));
            else task.resolve({ certificate: reply.certificate, report: reply.report });
          }
          dispatch();
        });
        idle.push(worker);
        dispatch();
        resolve();
      });
      worker.once('error', (error) => {
        const task = busy.get(worker);
        busy.delete(worker);
        const at = idle.indexOf(worker);
        if (at >= 0) idle.splice(at, 1);
        task?.reject(error);
        reject(error);
        if (!closed) void spawnThread().catch(() => undefined);
      });
    });

  const ready = Promise.all(Array.from({ length: Math.max(1, options.size) }, spawnThread)).then(() => undefined);
  return {
    ready,
    render(input, signal) {
      if (closed) return Promise.reject(new Error('renderer is closed'));
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      return new Promise((resolve, reject) => {
        const task: Task = { id: nextId++, input, resolve, reject };
        // An aborted task leaves the queue; one a thread already renders is answered into the
        // void (its thread goes back to idle when done, or is terminated by close()).
        const abort = () => {
          const at = queue.indexOf(task);
          if (at >= 0) queue.splice(at, 1);
          reject(signal!.reason as Error);
        };
        signal?.addEventListener('abort', abort, { once: true });
        task.resolve = (pair) => {
          signal?.removeEventListener('abort', abort);
          resolve(pair);
        };
        task.reject = (error) => {
          signal?.removeEventListener('abort', abort);
          reject(error);
        };
        queue.push(task);
        dispatch();
      });
    },
    async close() {
      closed = true;
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
  };
}
