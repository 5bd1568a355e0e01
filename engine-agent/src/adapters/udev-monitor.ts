import { createDebouncer, DEFAULT_SETTLE_MS, type Presence } from '../station/debounce.js';
import { createUdevParser } from '../station/udev-events.js';
import { createToolStarter, type ToolStarter } from './runner.js';

/** A running watch over the bays; `stop` ends the monitor process. */
export interface BayWatch {
  stop(): Promise<void>;
  /** Settles when the monitor ends: on `stop`, or on its own (the station must then say it cannot watch). */
  readonly ended: Promise<{ byStop: boolean; exitCode: number | undefined; stderr: string }>;
}

/**
 * Watches block devices come and go with `udevadm monitor` (udev's own events, after its rules
 * ran, so ID_PATH and the serial are filled in), debounced per device path. Event driven: the
 * kernel and udev push, nothing polls. The monitor runs through the tool runner's `start`, like
 * every other tool.
 */
export function watchBays(opts: { onPresence: (p: Presence) => void; settleMs?: number; start?: ToolStarter }): BayWatch {
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
  const start = opts.start ?? createToolStarter();
  const monitor = start('udevadm', ['monitor', '--udev', '--property', '--subsystem-match=block'], {
    onStdout: (chunk) => {
      for (const ev of parse(chunk)) debouncer.push(ev);
    },
  });
  let stopping = false;
  const ended = monitor.ended.then((r) => {
    debouncer.stop();
    // A monitor that never started explains itself the way a dead one does: in its stderr text.
    return { byStop: stopping, exitCode: r.exitCode ?? undefined, stderr: r.spawnError ? `could not start udevadm: ${r.spawnError}` : r.stderrTail };
  });
  return {
    ended,
    async stop() {
      stopping = true;
      await monitor.stop();
      await ended;
    },
  };
}
