import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cached, InputHash } from './cache.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'iso-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('layer cache keys', () => {
  it('are the same for the same inputs, whatever order the folder lists them in', () => {
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'z.service'), 'z');
    writeFileSync(join(dir, 'a', 'b.service'), 'b');
    expect(new InputHash().tree('rootfs', join(dir, 'a')).digest()).toBe(new InputHash().tree('rootfs', join(dir, 'a')).digest());
  });

  it('change when a file of the layer changes, or only its executable bit', () => {
    writeFileSync(join(dir, 'setup.sh'), 'echo 1');
    const before = new InputHash().tree('t', dir).digest();
    writeFileSync(join(dir, 'setup.sh'), 'echo 2');
    const edited = new InputHash().tree('t', dir).digest();
    expect(edited).not.toBe(before);
    writeFileSync(join(dir, 'setup.sh'), 'echo 1');
    chmodSync(join(dir, 'setup.sh'), 0o755);
    expect(new InputHash().tree('t', dir).digest()).not.toBe(before);
  });

  it('do not let two inputs run together ("ab"+"c" differs from "a"+"bc")', () => {
    expect(new InputHash().text('x', 'ab').text('y', 'c').digest()).not.toBe(new InputHash().text('x', 'a').text('y', 'bc').digest());
  });
});

describe('cached layers', () => {
  it('builds once, then reports a hit without building', async () => {
    let builds = 0;
    const build = async (partial: string) => {
      builds += 1;
      writeFileSync(partial, 'layer');
    };
    expect(await cached(join(dir, 'layer.squashfs'), build)).toMatchObject({ hit: false });
    expect(await cached(join(dir, 'layer.squashfs'), build)).toMatchObject({ hit: true });
    expect(builds).toBe(1);
  });

  it('leaves nothing that looks complete when a build fails half way', async () => {
    await expect(
      cached(join(dir, 'layer.squashfs'), async (partial) => {
        writeFileSync(partial, 'half');
        throw new Error('mksquashfs died');
      }),
    ).rejects.toThrow(/mksquashfs died/);
    expect(existsSync(join(dir, 'layer.squashfs'))).toBe(false);
    expect(readdirSync(dir).every((f) => f.startsWith('partial-'))).toBe(true);
  });
});
