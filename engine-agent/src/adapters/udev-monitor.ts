import { execa } from 'execa';
import { createDebouncer, DEFAULT_SETTLE_MS, type Presence } from '../station/debounce.js';
import { createUdevParser } from '../station/udev-events.js';

/** A running watch over the bays; `stop` ends the monitor process. */
export interface BayWatch {
  stop(): Promise<void>;
  /** Settles when the monitor ends: on `stop`, or on its own (the station must then say it cannot watch). */
  readonly ended: Promise<{ byStop: boolean; exitCode: number | undefined; stderr: string }>;
}

/**
 * Watches block devices come and go with `udevadm monitor` (udev's own events, after its rules
 * ran, so ID_PATH and the serial are filled in), debounced per device path. Event driven: the
 * kernel and udev push, nothing polls.
 */
export function watchBays(opts: { onPresence: (p: Presence) => void; settleMs?: number; env?: NodeJS.ProcessEnv }): BayWatch {
  const child = execa('udevadm', ['monitor', '--udev', '--property', '--subsystem-match=block'], {
    buffer: false,
    stdin: 'ignore',
    stderr: 'pipe',
    reject: false,
    ...(opts.env ? { env: opts.env } : {}),
  });
  const parse = createUdevParser();
  const debouncer = createDebouncer({
    settleMs: opts.settleMs ?? DEFAULT_SETTLE_MS,
    timers: {
      set: (ms, fn) => {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      },
    },
    onSettled: opts.onPresence,
  });
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    for (const ev of parse(chunk)) debouncer.push(ev);
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    // Kept short: only the tail explains why a monitor died.
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  let stopping = false;
  const ended = child.then((r) => {
    debouncer.stop();
    return { byStop: stopping, exitCode: r.exitCode, stderr };
  });
  return {
    ended,
    async stop() {
      stopping = true;
      child.kill('SIGTERM');
      await ended;
    },
  };
}
