import { execa } from 'execa';
import type { Readable } from 'node:stream';
import { IMAGE_VOLUME_ID } from '@erasure/shared';
import { appendDataPartitionArgs, makeDataPartition } from './data-partition.js';
import { checkPersonalization, stagePersonalization, type Personalization } from './personalization.js';

/**
 * xorriso's arguments to copy `base` with the personalization files added, replaying its boot
 * setup (El Torito BIOS and EFI entries, the hybrid MBR/GPT), so the copy boots as the base did.
 * The replay leaves out a partition the base had appended, so a fresh, empty ERASURE-DATA
 * partition is appended again: every personalized image carries exactly one.
 */
function xorrisoArgs(base: string, outdev: string, files: ReadonlyArray<[string, string]>, dataPartition: string): string[] {
  return [
    '-abort_on', 'FAILURE',
    '-indev', base,
    '-outdev', outdev,
    '-boot_image', 'any', 'replay',
    '-volid', IMAGE_VOLUME_ID,
    ...files.flatMap(([local, isoPath]) => ['-map', local, `/${isoPath}`]),
    ...appendDataPartitionArgs(dataPartition),
    '-commit',
    '-end',
  ];
}

/** The personalization files and a data partition, staged in temporary files for xorriso. */
async function stage(p: Personalization): Promise<{ files: Array<[string, string]>; dataPartition: string; dispose: () => void }> {
  const staged = stagePersonalization(checkPersonalization(p));
  try {
    const data = await makeDataPartition();
    return {
      files: staged.files,
      dataPartition: data.file,
      dispose: () => {
        staged.dispose();
        data.dispose();
      },
    };
  } catch (error) {
    staged.dispose();
    throw error;
  }
}

/** Writes a personalized copy of `base` to `out` (seconds: nothing is rebuilt). */
export async function personalizeIso(base: string, out: string, p: Personalization): Promise<void> {
  const staged = await stage(p);
  try {
    await execa('xorriso', xorrisoArgs(base, out, staged.files, staged.dataPartition), { stdout: 'ignore', stderr: 'pipe' });
  } finally {
    staged.dispose();
  }
}

/**
 * A personalized copy of `base` as a stream, written as xorriso produces it: a download is
 * never stored. `done` settles when xorriso exits (rejecting with its messages on failure);
 * `cancel` stops it when the client goes away.
 */
export async function streamPersonalizedIso(base: string, p: Personalization): Promise<{ stream: Readable; done: Promise<void>; cancel: () => void }> {
  const staged = await stage(p);
  const child = execa('xorriso', xorrisoArgs(base, '-', staged.files, staged.dataPartition), { stdout: 'pipe', stderr: 'pipe', buffer: { stdout: false, stderr: true } });
  const done = child.then(
    () => staged.dispose(),
    (error: unknown) => {
      staged.dispose();
      throw error;
    },
  );
  if (!child.stdout) throw new Error('xorriso has no stdout');
  // SIGKILL: on SIGTERM xorriso's burn library waits about two seconds for its writer thread,
  // and a stream to a pipe leaves nothing behind to tidy (the staged files are ours, removed above).
  return { stream: child.stdout, done, cancel: () => child.kill('SIGKILL') };
}
