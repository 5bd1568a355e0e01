import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronBinary } from './project-layer.js';

let repo: string;
afterEach(() => rmSync(repo, { recursive: true, force: true }));

/** A repo whose node_modules/electron is the npm package as installed (no binary), optionally with the binary fetched. */
function repoWithElectron(fetched: boolean): string {
  repo = mkdtempSync(join(tmpdir(), 'project-layer-'));
  const pkg = join(repo, 'node_modules', 'electron');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'electron', version: '45.5.0' }));
  if (fetched) {
    mkdirSync(join(pkg, 'dist'));
    writeFileSync(join(pkg, 'dist', 'electron'), 'ELF');
    writeFileSync(join(pkg, 'path.txt'), 'electron');
  }
  return repo;
}

describe("the project layer's Electron binary", () => {
  it('is taken when the electron package fetched it on this machine', () => {
    expect(electronBinary(repoWithElectron(true))).toMatchObject({ dir: join(repo, 'node_modules/electron/dist'), version: '45.5.0' });
  });

  it('is said to be missing, with how to fetch it, when npm installed the package alone', () => {
    expect(electronBinary(repoWithElectron(false))).toEqual({ reason: expect.stringMatching(/^Electron 45\.5\.0's binary was never fetched on this machine/) });
  });
});
