import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runner } from '../adapters/runner.js';
import { nodeSystemView } from '../adapters/system-view.js';
import { clockSynchronized } from './clock-sync.js';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

function tree(files: string[]): string {
  root = mkdtempSync(join(tmpdir(), 'clock-'));
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  return root;
}

/** timedatectl answering `value` (or failing to start), and how often it was asked. */
function timedatectl(value: string | Error): Runner & { calls: number } {
  const run = Object.assign(
    async () => {
      run.calls++;
      if (value instanceof Error) throw value;
      return { exitCode: 0, stdout: `${value}\n`, stderr: '', timedOut: false };
    },
    { calls: 0 },
  );
  return run as unknown as Runner & { calls: number };
}

describe('whether the clock is synchronized', () => {
  it('reads timesyncd’s marker: synchronized once an NTP server answered, without asking D-Bus', async () => {
    const run = timedatectl('no');
    expect(await clockSynchronized(run, nodeSystemView(tree(['run/systemd/timesync/synchronized'])))).toBe(true);
    expect(run.calls).toBe(0);
  });

  it('says not synchronized while timesyncd runs and no server has answered', async () => {
    const sys = nodeSystemView(tree(['run/systemd/timesync/io.systemd.Timesync']));
    expect(await clockSynchronized(timedatectl('yes'), sys)).toBe(false);
  });

  it('asks timedatectl where timesyncd is not running', async () => {
    const sys = nodeSystemView(tree(['run/other']));
    expect(await clockSynchronized(timedatectl('yes'), sys)).toBe(true);
    expect(await clockSynchronized(timedatectl('no'), sys)).toBe(false);
  });

  it('cannot tell on a machine without systemd', async () => {
    expect(await clockSynchronized(timedatectl(new Error('spawn timedatectl ENOENT')), nodeSystemView(tree([])))).toBeUndefined();
  });
});
