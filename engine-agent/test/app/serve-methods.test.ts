import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES_SKIP_NOTE, fixturesPresent } from '../support/fixtures.js';
import { frozenLaptop } from '../support/frozen-laptop.js';
import { simulatedServe, until, intent, state, type ServeSut } from '../support/serve-env.js';

type Sut = ServeSut;
let sut: Sut | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});


describe('serve API: the method the operator chooses per drive (issue 29)', () => {
  it('chooses with choose_method alone: a select carrying methods is not an intent (400) and selects nothing', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    const [first] = (await state(sut)).drives.map((d) => d.device) as [string];
    const r = await intent(sut, { type: 'select', devices: [first], methods: { [first]: 'gutmann' } });
    expect(r.status).toBe(400);
    expect((await state(sut)).selected).toEqual([]);
    expect((await state(sut)).erasure).toMatchObject({ methods: { [first]: 'nist-800-88-purge' } });
  });

  it('refuses an unknown method, one for a drive not of this machine, or one that cannot reach every sector of the drive, in words, and keeps the drive’s method', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    const [first] = (await state(sut)).drives.map((d) => d.device) as [string];
    const unknown = await intent(sut, { type: 'choose_method', device: first, method: 'dod-99' });
    expect(unknown).toMatchObject({ status: 409, json: { error: '"dod-99" is not an erasure method this engine knows' } });
    const other = await intent(sut, { type: 'choose_method', device: '/dev/sdz', method: 'gutmann' });
    expect(other).toMatchObject({ status: 409, json: { error: 'not a drive of this machine: /dev/sdz' } });
    // A simulated drive has no firmware erase: BSI-GS (an overwrite, then the drive's own erase) cannot run on it.
    const unreachable = await intent(sut, { type: 'choose_method', device: first, method: 'bsi-gs' });
    expect(unreachable).toMatchObject({ status: 409, json: { error: expect.stringMatching(/^BSI-GS needs a firmware erase after its overwrite, and none can run on this drive: /) } });
    expect((await state(sut)).erasure).toMatchObject({ methods: { [first]: 'nist-800-88-purge' }, refusals: {} });
  });

  it('erases a drive with the chosen DoD 5220.22-M (3 passes) and the other with the default, and reports each by its method', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    const devices = (await state(sut)).drives.map((d) => d.device) as [string, string];
    expect((await intent(sut, { type: 'choose_method', device: devices[0], method: 'dod-5220.22-m-3' })).status).toBe(200);
    expect((await intent(sut, { type: 'select', devices })).status).toBe(200);
    await intent(sut, { type: 'confirm', text: 'ERASE 2 DRIVES' });
    expect((await intent(sut, { type: 'start' })).status).toBe(200);
    await until(() => sut?.controller.snapshot().run.status === 'finished');
    const results = sut.gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => c.body as Record<string, unknown>);
    expect(results).toHaveLength(2);
    const byMethod = Object.fromEntries(results.map((r) => [r.wipe_method, r]));
    expect(byMethod['DoD 5220.22-M (3 passes)']).toMatchObject({ passes_completed: 3, wipe_status: 'completed' });
    expect(String(byMethod['DoD 5220.22-M (3 passes)']?.verification_result)).toMatch(/^full verification: all \d+ bytes read back .* of pass 3/);
    expect(byMethod['NIST 800-88 R2 Clear']).toMatchObject({ passes_completed: 1, wipe_status: 'completed' });
  });
});

/** The token's contract: BSI-GS (an overwrite, then the drive's own firmware erase) allowed beside NIST Purge. */
const BSI_GS_ALLOWED = [200, { erasure_policy: { default_method: 'nist-800-88-purge', verification: 'full', allowed_methods: ['nist-800-88-purge', 'bsi-gs'] }, source: 'token' }] as const;

describe.skipIf(!fixturesPresent)(`serve API: a method is checked as the run plans it (a frozen SATA SSD replayed from ${FIXTURES_SKIP_NOTE})`, () => {
  it('keeps this boot’s freeze lock removal in the check of a chosen method: BSI-GS is refused saying the removal is off', async () => {
    sut = await simulatedServe({ run: frozenLaptop().run, env: { ERASURE_SIMULATE: '0', ERASURE_UNFREEZE: 'off' }, gateway: { erasurePolicy: BSI_GS_ALLOWED } });
    await sut.controller.bootUp();
    expect((await state(sut)).drives.map((d) => d.device)).toContain('/dev/sda');
    const r = await intent(sut, { type: 'choose_method', device: '/dev/sda', method: 'bsi-gs' });
    expect(r.status).toBe(409);
    // The plan says what this boot's freeze lock removal did (it was switched off), as the run's plan would.
    expect(r.json.error).toMatch(/^BSI-GS needs a firmware erase after its overwrite, and none can run on this drive: the drive is frozen by the BIOS \(freeze lock\) and freeze lock removal is off \(/);
    expect((await state(sut)).erasure).toMatchObject({ methods: { '/dev/sda': 'nist-800-88-purge' } });
  });
});
