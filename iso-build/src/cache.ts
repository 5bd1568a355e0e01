import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';

/**
 * The build cache lives outside the repository (a fresh clone must not carry gigabytes, and a
 * second clone on the same machine reuses the same layers). `ERASURE_ISO_CACHE` moves it.
 */
export function cacheDir(env: Readonly<Record<string, string | undefined>>): string {
  const dir = env.ERASURE_ISO_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'erasure-iso');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A hash of strings and files: the cache key of a layer is the hash of everything it is built from. */
export class InputHash {
  private readonly hash = createHash('sha256');

  text(label: string, value: string): this {
    this.hash.update(`${label}\0${value.length}\0${value}\0`);
    return this;
  }

  /** Every file under `dir`, by relative path, content and executable bit, in a stable order. */
  tree(label: string, dir: string): this {
    for (const file of listFiles(dir)) {
      const mode = statSync(file).mode & 0o111 ? 'x' : '-';
      this.text(`${label}:${relative(dir, file)}:${mode}`, readFileSync(file, 'latin1'));
    }
    return this;
  }

  digest(): string {
    return this.hash.digest('hex').slice(0, 16);
  }
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? listFiles(path) : [path];
    });
}

/**
 * Builds `target` unless it is already there. The builder writes to a temporary name that is
 * renamed into place only when it finished, so an interrupted build never leaves a layer that
 * looks complete.
 */
export async function cached(target: string, build: (partial: string) => Promise<void>): Promise<{ path: string; hit: boolean }> {
  if (existsSync(target)) return { path: target, hit: true };
  // Same folder (rename is atomic), same extension (mmdebstrap picks its output format by it).
  const partial = join(dirname(target), `partial-${process.pid}-${basename(target)}`);
  await build(partial);
  renameSync(partial, target);
  return { path: target, hit: false };
}
