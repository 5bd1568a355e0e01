import type { ServerResponse } from 'node:http';
import { Transform, type Readable } from 'node:stream';

/** A personalization in progress, as the image personalizer hands it out. */
export interface Personalization {
  stream: Readable;
  /** Settles when xorriso exits; rejects when it failed or was stopped. */
  done: Promise<void>;
  cancel: () => void;
}

/**
 * How a download ended. Only `completed` means the client was handed every byte of an image
 * xorriso finished: the token baked into anything else is revoked.
 */
export type DownloadOutcome = 'completed' | 'aborted' | 'stalled' | 'failed';

/** Default for IMAGE_DOWNLOAD_STALL_SECONDS: a reader that takes nothing for a minute is gone. */
export const DEFAULT_STALL_SECONDS = 60;

/**
 * Sends a personalization to `response` and watches it (issue 20, item 6):
 * - a client that leaves stops xorriso;
 * - a reader that takes no bytes for `stallMs` (backpressure holds xorriso back, so nothing
 *   flows) gets xorriso stopped and the connection cut;
 * - the body ends only after xorriso exited cleanly; a failed xorriso cuts the connection, so
 *   the browser marks the download failed instead of saving a truncated image.
 * `outcome` settles once xorriso has exited and the response has closed, whichever is last,
 * so a caller that frees a slot on it counts processes, not requests.
 */
export function superviseDownload(
  source: Personalization,
  response: ServerResponse,
  options: { stallMs: number },
): { body: Readable; outcome: Promise<{ outcome: DownloadOutcome; error?: unknown }> } {
  let stopped: 'client' | 'stall' | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stop = (why: 'client' | 'stall') => {
    stopped ??= why;
    clearTimeout(timer);
    source.cancel();
    // Closing the pipe's read end too: xorriso blocked writing to a full pipe may not act on
    // SIGTERM until the write fails, which it does at once on a closed pipe.
    source.stream.destroy();
    if (why === 'stall') response.destroy();
  };
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stop('stall'), options.stallMs);
  };

  // A chunk passes only when the response asks for more, so each one is the reader's progress.
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      arm();
      callback(null, chunk);
    },
    flush(callback) {
      // A failed xorriso cuts the connection before the body could end cleanly, headers sent or
      // not: the client sees a failed download, never a truncated image or an error page saved
      // as one. The outcome carries the error to the log.
      source.done.then(
        () => callback(),
        () => {
          response.destroy();
          callback();
        },
      );
    },
  });
  source.stream.on('error', (error) => body.destroy(error));
  source.stream.pipe(body);
  arm();

  // 'finish': every byte handed to the OS. Tracked here rather than read from writableFinished,
  // which a response that is not backed by a socket (fastify's inject) never sets.
  let finished = false;
  response.on('finish', () => {
    finished = true;
  });
  const closed = new Promise<void>((resolve) => {
    if (response.destroyed) {
      stop('client');
      resolve();
      return;
    }
    response.on('close', () => {
      clearTimeout(timer);
      if (!finished) stop('client');
      resolve();
    });
  });
  const exited = source.done.then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const outcome = Promise.all([closed, exited]).then(([, exit]) => {
    if (stopped === 'stall') return { outcome: 'stalled' as const };
    if (!exit.ok) return stopped === 'client' ? { outcome: 'aborted' as const } : { outcome: 'failed' as const, error: exit.error };
    return finished ? { outcome: 'completed' as const } : { outcome: 'aborted' as const };
  });
  return { body, outcome };
}
