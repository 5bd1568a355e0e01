import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readUnfreezeSetting, saveUnfreezeSetting } from './unfreeze-setting.js';

const root = mkdtempSync(join(tmpdir(), 'unfreeze-setting-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const dir = () => join(root, String(++n));

describe('the freeze lock removal setting', () => {
  it('is auto by default, and the kernel option when one is given', async () => {
    expect(await readUnfreezeSetting(dir(), undefined)).toEqual({ mode: 'auto', source: 'default' });
    expect(await readUnfreezeSetting(dir(), 'off')).toEqual({ mode: 'off', source: 'erasure.unfreeze=off' });
  });

  it('takes the kiosk\'s saved choice over the kernel option', async () => {
    const d = dir();
    await saveUnfreezeSetting(d, 'off');
    expect(await readUnfreezeSetting(d, 'auto')).toEqual({ mode: 'off', source: 'kiosk setting' });
  });

  it('is off when the saved file holds no valid choice: a suspend is never assumed', async () => {
    const d = dir();
    await saveUnfreezeSetting(d, 'auto');
    writeFileSync(join(d, 'unfreeze-setting.json'), '{"mode":"sometimes"}');
    expect(await readUnfreezeSetting(d, 'auto')).toMatchObject({ mode: 'off' });
    writeFileSync(join(d, 'unfreeze-setting.json'), 'not json');
    expect(await readUnfreezeSetting(d, 'auto')).toMatchObject({ mode: 'off' });
  });
});
