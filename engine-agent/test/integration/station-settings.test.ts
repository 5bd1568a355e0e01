import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readStationSettings, saveStationSettings } from '../../src/adapters/station-settings.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'station-settings-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the station settings file in DATA_DIR', () => {
  it('survives saves that overlap: each writes a temporary file of its own, the file is always whole, none is left over', async () => {
    const policies = ['confirm', 'auto', 'confirm', 'auto', 'confirm', 'auto'] as const;
    await Promise.all(policies.map((policy) => saveStationSettings(dir, { policy })));
    expect(['{"policy":"auto"}\n', '{"policy":"confirm"}\n']).toContain(readFileSync(join(dir, 'station-settings.json'), 'utf8'));
    expect(readdirSync(dir)).toEqual(['station-settings.json']);
  });

  it('reads no file as nothing saved', async () => {
    expect(await readStationSettings(dir)).toEqual({});
  });

  it.each([
    ['torn JSON', '{"policy":"au', 'station-settings.json is not valid JSON'],
    ['an unknown policy', '{"policy":"yolo"}', 'station-settings.json holds no valid policy ("yolo")'],
    ['no policy', '{}', 'station-settings.json holds no valid policy (none)'],
  ])('reads %s as confirm (fail closed), saying why', async (_what, text, unreadable) => {
    writeFileSync(join(dir, 'station-settings.json'), text);
    expect(await readStationSettings(dir)).toEqual({ policy: 'confirm', unreadable });
  });

  it('reads a file that cannot be read as confirm, saying why', async () => {
    mkdirSync(join(dir, 'station-settings.json'));
    expect(await readStationSettings(dir)).toEqual({ policy: 'confirm', unreadable: 'station-settings.json could not be read (EISDIR)' });
  });
});
