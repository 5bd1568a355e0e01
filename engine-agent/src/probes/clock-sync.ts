import type { Runner } from '../adapters/runner.js';
import type { SysfsReader } from './sysfs-block.js';

/** systemd-timesyncd's runtime directory: present while it runs, `synchronized` in it once an NTP server answered. */
const TIMESYNC_DIR = '/run/systemd/timesync';

/**
 * Whether the clock is synchronized (timesyncd got an NTP answer), or undefined where that cannot
 * be told (no systemd, a developer's machine). Device tokens carry `exp`, so a machine whose clock
 * could not be set must say so on its locked screen.
 *
 * timesyncd's own marker file is read first (what systemd-time-wait-sync waits for): no D-Bus
 * round trip, whose first call activates systemd-timedated and can take many seconds on a slow
 * machine. `timedatectl` answers only where timesyncd is not running (another NTP client).
 */
export async function clockSynchronized(run: Runner, sys: Pick<SysfsReader, 'realPath' | 'listDir'>): Promise<boolean | undefined> {
  if (await sys.realPath(TIMESYNC_DIR)) return (await sys.listDir(TIMESYNC_DIR)).includes('synchronized');
  try {
    const r = await run('timedatectl', ['show', '--property=NTPSynchronized', '--value'], { timeoutMs: 20_000 });
    const value = r.exitCode === 0 ? r.stdout.trim() : '';
    return value === 'yes' ? true : value === 'no' ? false : undefined;
  } catch {
    return undefined;
  }
}
