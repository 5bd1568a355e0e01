import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holdWhilePaused, pauseMarker } from './pause.js';

describe('a paused simulated drive', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-pause-'));
  const device = join(dir, 'bay-1.img');
  afterEach(() => rmSync(pauseMarker(device), { force: true }));

  it('does not wait when the drive is not paused', async () => {
    expect(await holdWhilePaused(device)).toBeLessThan(50);
  });

  it('waits while its marker is there, and goes on once it is removed', async () => {
    writeFileSync(pauseMarker(device), '');
    let resumed = false;
    const held = holdWhilePaused(device, undefined, 5).then((ms) => {
      resumed = true;
      return ms;
    });
    await new Promise((r) => setTimeout(r, 60));
    expect(resumed).toBe(false);
    rmSync(pauseMarker(device));
    expect(await held).toBeGreaterThanOrEqual(50);
  });

  it('stops waiting when the erase is stopped (a cancel or a pull-out)', async () => {
    writeFileSync(pauseMarker(device), '');
    const abort = new AbortController();
    const held = holdWhilePaused(device, abort.signal, 5);
    abort.abort(new Error('cancelled by the operator'));
    await expect(held).rejects.toThrow('cancelled by the operator');
  });
});
