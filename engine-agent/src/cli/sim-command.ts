import { insertDrive, parseSize, pauseDrive, pullDrive, seatedDrives, SIM_BAYS, SIM_DEFAULT_SIZE } from '../simulate/backplane.js';

/**
 * `erasure-agent sim insert BAY [--size SIZE] | pull BAY | pause BAY | resume BAY | list`: a QA
 * engineer's hand on the simulated backplane. It only adds or removes a bay's backing file (or
 * the marker that holds its writes: a drive that hangs mid-erase, for the floor view's stall); `serve --station --simulate`
 * on the same DATA_DIR sees the change as udev's add or remove and runs the real station on it.
 * Exit 0 done, 2 usage or refused.
 */
export async function simCommand(dataDir: string, args: readonly string[], opts: { size?: string; json?: boolean }, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const [verb, bay] = args;
  if (verb === 'list') {
    const seated = await seatedDrives(dataDir);
    if (opts.json) {
      out(JSON.stringify({ bays: SIM_BAYS, seated }));
      return 0;
    }
    for (let n = 1; n <= SIM_BAYS; n++) {
      const d = seated.find((x) => x.bay === n);
      out(`bay ${n}: ${d ? `${d.model} ${d.serial} (${d.sizeBytes} bytes) ${d.device}` : 'empty'}`);
    }
    return 0;
  }
  if (!['insert', 'pull', 'pause', 'resume'].includes(verb ?? '') || bay === undefined || args.length !== 2) {
    err('usage: erasure-agent sim insert BAY [--size SIZE] | sim pull BAY | sim pause BAY | sim resume BAY | sim list');
    return 2;
  }
  if (verb === 'pause' || verb === 'resume') {
    const r = await pauseDrive(dataDir, bay, verb === 'pause');
    if (!r.ok) return refused(err, r.reason);
    out(`bay ${r.bay}: drive ${verb === 'pause' ? 'paused (its erase writes nothing until resumed)' : 'resumed'}`);
    return 0;
  }
  if (verb === 'pull') {
    const r = await pullDrive(dataDir, bay);
    if (!r.ok) return refused(err, r.reason);
    out(`bay ${r.bay}: drive pulled`);
    return 0;
  }
  const size = opts.size === undefined ? SIM_DEFAULT_SIZE : parseSize(opts.size);
  if (size === undefined) return refused(err, `--size ${opts.size}: give a size such as 64M or 2G (whole 4 KiB blocks, at most 64G)`);
  const r = await insertDrive(dataDir, bay, size);
  if (!r.ok) return refused(err, r.reason);
  out(`bay ${r.drive.bay}: ${r.drive.model} ${r.drive.serial} seated (${r.drive.device})`);
  return 0;
}

function refused(err: (line: string) => void, reason: string): number {
  err(reason);
  return 2;
}
