import type { Runner } from '../adapters/runner.js';

/**
 * Whether systemd says the clock is synchronized (timesyncd got an NTP answer), or undefined
 * where that cannot be told (no systemd, a developer's machine). Device tokens carry `exp`, so a
 * machine whose clock could not be set must say so on its locked screen.
 */
export async function clockSynchronized(run: Runner): Promise<boolean | undefined> {
  try {
    const r = await run('timedatectl', ['show', '--property=NTPSynchronized', '--value'], { timeoutMs: 5_000 });
    const value = r.exitCode === 0 ? r.stdout.trim() : '';
    return value === 'yes' ? true : value === 'no' ? false : undefined;
  } catch {
    return undefined;
  }
}
