import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { SysfsReader } from '../../src/probes/sysfs-block.js';

/** A sysfs tree built in a temp dir: real directories, files and symlinks, read through the real port shape. */
export interface SysfsTree {
  readonly root: string;
  readonly sys: SysfsReader;
  file(path: string, text: string): void;
  link(path: string, target: string): void;
  remove(): void;
}

/** Binds the sysfs port to a directory, the way the real adapter binds it to `/`. */
export function dirSysfs(root: string): SysfsReader {
  return {
    listDir: async (p) => {
      try {
        return readdirSync(join(root, p));
      } catch {
        return [];
      }
    },
    readText: async (p) => {
      try {
        return readFileSync(join(root, p), 'utf8');
      } catch {
        return undefined;
      }
    },
    realPath: async (p) => {
      try {
        return '/' + relative(realpathSync(root), realpathSync(join(root, p)));
      } catch {
        return undefined;
      }
    },
  };
}

export function sysfsTree(): SysfsTree {
  const root = mkdtempSync(join(tmpdir(), 'sysfs-tree-'));
  const sys = dirSysfs(root);
  return {
    root,
    sys,
    file: (path, text) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    },
    /** `target` is absolute inside the tree; the link is made relative, as sysfs links are. */
    link: (path, target) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      mkdirSync(join(root, target), { recursive: true });
      symlinkSync(relative(dirname(join(root, path)), join(root, target)), join(root, path));
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
