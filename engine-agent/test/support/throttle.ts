import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const BLKIO = '/sys/fs/cgroup/blkio';

/** Write throttling needs the cgroup v1 blkio controller (root); the tests that use it skip with this note otherwise. */
export const throttleSkipReason = (() => {
  if (process.getuid?.() !== 0) return 'not root: throttled-drive tests skipped';
  if (!existsSync(join(BLKIO, 'blkio.throttle.write_bps_device'))) return 'no cgroup v1 blkio controller: throttled-drive tests skipped';
  return undefined;
})();

/**
 * A blkio cgroup that slows the writes of the processes started in it to chosen devices, as a
 * slow disk would be: the kernel's own throttle, not a stand-in. `command` wraps a command line
 * so the process joins the group before it execs.
 */
export function writeThrottle(name: string): { limit: (device: string, bytesPerSecond: number) => void; command: (file: string, args: readonly string[]) => [string, string[]]; cleanup: () => void } {
  const dir = join(BLKIO, `${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  return {
    limit: (device, bytesPerSecond) => {
      const majMin = execFileSync('lsblk', ['-dno', 'MAJ:MIN', device], { encoding: 'utf8' }).trim();
      writeFileSync(join(dir, 'blkio.throttle.write_bps_device'), `${majMin} ${bytesPerSecond}\n`);
    },
    command: (file, args) => ['sh', ['-c', `echo $$ > ${join(dir, 'cgroup.procs')} && exec "$0" "$@"`, file, ...args]],
    cleanup: () => {
      try {
        rmdirSync(dir);
      } catch {
        // still has a process, or already gone
      }
    },
  };
}
