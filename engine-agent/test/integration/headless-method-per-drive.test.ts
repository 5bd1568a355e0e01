import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listDrives } from '../../src/agent.js';
import { bootMethodPolicy, parseBootOptions } from '../../src/image/boot-options.js';
import { withOwnMethods } from '../../src/image/headless.js';
import { outboxAgentEnv } from '../support/outbox-env.js';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** The simulated machine's drives as headless lists them, planned for the boot options of `cmdline`. */
async function planned(cmdline: string) {
  dir = mkdtempSync(join(tmpdir(), 'headless-method-'));
  const env = outboxAgentEnv(dir, 'http://127.0.0.1:9');
  const device = (await listDrives(env))[0]!.device;
  const options = parseBootOptions(cmdline.replace('DEVICE', device));
  const drives = withOwnMethods(await listDrives(env, bootMethodPolicy(options)), options.methods ?? {}, bootMethodPolicy(options));
  return { device, drives };
}

describe('headless: erasure.method=<device>:<id> plans that drive for its own method', () => {
  it('plans the named drive for the named method (3 passes) and keeps the default plan for the others', async () => {
    const { device, drives } = await planned('erasure.mode=headless erasure.method=DEVICE:dod-5220.22-m-3');
    const own = drives.find((d) => d.device === device)!;
    expect(own.plan).toMatchObject({ ok: true, methodId: 'dod-5220.22-m-3' });
    const others = drives.filter((d) => d.device !== device);
    expect(others.length).toBeGreaterThan(0);
    for (const d of others) expect(d.plan.ok && d.plan.methodId).not.toBe('dod-5220.22-m-3');
  });

  it('leaves the named drive without a plan (so headless skips it, unwritten) when its method is none the catalogue has', async () => {
    const { device, drives } = await planned('erasure.mode=headless erasure.method=DEVICE:made-up');
    const own = drives.find((d) => d.device === device)!;
    expect(own.plan.ok).toBe(false);
    expect(own.plan.ok ? '' : own.plan.reason).toMatch(/made-up/);
    for (const d of drives.filter((x) => x.device !== device)) expect(d.plan.ok).toBe(true);
  });
});
