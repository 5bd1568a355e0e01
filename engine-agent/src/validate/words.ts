import { describeExpected, type Expected } from './expected.js';
import type { ValidationRead } from './read-drive.js';

const n = (value: number) => value.toLocaleString('en-US');
const gb = (bytes: number) => `${(bytes / 1e9).toFixed(bytes >= 1e10 ? 0 : 2)} GB`;

/** What a validation found, in plain words, and (rejected) why: the report's `findings` and `reason`. */
export function describeValidation(read: ValidationRead, expected: Expected): { findings: string; reason: string | null } {
  const sectors = Math.floor(read.bytesRead / read.sectorSize);
  const head = `Read every sector of the drive (${n(sectors)} sectors of ${n(read.sectorSize)} bytes, ${gb(read.bytesRead)}) directly from the medium, independently of the erasure.`;
  const want = describeExpected(expected);
  // Deallocated blocks (the discard after an overwrite) read as zeros on most SSDs: no data, said apart.
  const zeros = read.zeroBlocks > 0 && expected.kind !== 'zeros' ? ` ${n(read.zeroBlocks)} block${read.zeroBlocks === 1 ? '' : 's'} of 4 KiB read as zeros instead (deallocated, as after the discard that follows an overwrite), which holds no data.` : '';
  if (read.approved) {
    const every = zeros ? `Every other sector holds ${want}, as the erasure method left it.` : `Every sector holds ${want}, as the erasure method left it.`;
    return { findings: `${head} ${every}${zeros} No file or disk signature was found.`, reason: null };
  }
  const found = read.findings.map((f) => `${f.what} at byte ${n(f.offset)}`);
  const blocks = `${n(read.mismatchedBlocks)} block${read.mismatchedBlocks === 1 ? '' : 's'} of 4 KiB do not hold ${want}, the first at byte ${n(read.firstMismatchAt ?? 0)}`;
  const signatures = found.length > 0 ? `Found: ${found.join('; ')}.` : 'No known file signature was found in them, but they hold data the erasure did not write.';
  const reason = found.length > 0 ? `${found.slice(0, 3).join('; ')}${found.length > 3 ? ` and ${found.length - 3} more` : ''}` : `data the erasure did not write, first at byte ${n(read.firstMismatchAt ?? 0)}`;
  return { findings: `${head} ${blocks}.${zeros} ${signatures}`, reason: `found ${reason}` };
}
