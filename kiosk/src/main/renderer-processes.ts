import { readdirSync, readFileSync } from 'node:fs';

/** Reads a /proc file, or undefined when the process is gone meanwhile. */
const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** Every process below `rootPid` (children, grandchildren: Chromium's zygote forks its renderers). */
function descendants(rootPid: number, proc = '/proc'): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync(proc)) {
    if (!/^\d+$/.test(name)) continue;
    // The parent pid is the 2nd field after the parenthesised command name (which may hold spaces).
    const stat = read(`${proc}/${name}/stat`);
    const ppid = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : NaN;
    if (Number.isInteger(ppid)) parent.set(Number(name), ppid);
  }
  const below = (pid: number): boolean => {
    for (let p = parent.get(pid), hops = 0; p !== undefined && hops < 64; p = parent.get(p), hops++) if (p === rootPid) return true;
    return false;
  };
  return [...parent.keys()].filter(below);
}

/** Chromium's renderer processes under the browser `browserPid` (their command line has `--type=renderer`). */
export function rendererPids(browserPid: number, proc = '/proc'): number[] {
  // Chromium rewrites its children's titles: their cmdline may be one space-separated string, not NUL-separated words.
  return descendants(browserPid, proc).filter((pid) => /(^|[\s\0])--type=renderer([\s\0]|$)/.test(read(`${proc}/${pid}/cmdline`) ?? ''));
}

/** Resident memory (VmRSS) of those renderers together, in bytes; undefined when none was found. */
export function rendererRssBytes(browserPid: number, proc = '/proc'): number | undefined {
  let total = 0;
  let seen = 0;
  for (const pid of rendererPids(browserPid, proc)) {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(read(`${proc}/${pid}/status`) ?? '')?.[1];
    if (kb === undefined) continue;
    total += Number(kb) * 1024;
    seen++;
  }
  return seen > 0 ? total : undefined;
}
