import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes `dir/name` so that a power cut leaves either the old file or the new one, never a torn
 * one: written to a temporary file of its own (pid and random suffix, so two writers of the same
 * name never share one), synced, renamed into place, and the directory synced for the rename.
 */
export async function writeFileDurably(dir: string, name: string, text: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  const dirHandle = await open(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}
