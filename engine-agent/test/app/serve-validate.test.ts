import { afterEach, describe, expect, it } from 'vitest';
import { simulatedServe, until, intent, state, type ServeSut } from '../support/serve-env.js';

type Sut = ServeSut;
let sut: Sut | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});


/** The cloud's answer for a drive it picked for validation, erased to zeros. */
const PICKED = [200, { picked: true, certificate_number: 'CW-000007', lot_id: 'lot_1', wipe_method: 'NIST 800-88 R2 Clear', expect: { kind: 'zeros' }, validation: null }] as const;

// Issue 29 (5): the validation read checks what the erase left; an erase running beside it would
// make the read see the erase's own bytes, so none starts until the read's outcome is shown.
describe('serve API: no erase starts while a drive is being read for validation (issue 29)', () => {
  it('refuses start while a picked drive is read, saying which, and starts once its outcome is shown', async () => {
    const hold = new Set<string>();
    sut = await simulatedServe({ gateway: { validationPick: PICKED, hold } });
    await sut.controller.bootUp();
    const devices = (await state(sut)).drives.map((d) => d.device) as [string, string];
    expect((await intent(sut, { type: 'validate_drive', step: 'look' })).status).toBe(200);
    await until(() => sut?.controller.snapshot().validation?.drives.find((d) => d.device === devices[0])?.status === 'picked');

    // The read asks the cloud once more before it reads a byte: that answer is held, so the read is under way.
    hold.add('/api/validation_pick');
    expect((await intent(sut, { type: 'validate_drive', step: 'read', device: devices[0] })).status).toBe(200);
    expect((await state(sut)).validation?.reading?.device).toBe(devices[0]);
    expect((await intent(sut, { type: 'select', devices: [devices[1]] })).status).toBe(200);
    expect((await intent(sut, { type: 'confirm', text: 'ERASE 1 DRIVE' })).status).toBe(200);
    const refused = await intent(sut, { type: 'start' });
    expect(refused).toMatchObject({ status: 409, json: { error: `${devices[0]} is being read for validation: erase once its outcome is shown` } });
    expect((await state(sut)).run.status).not.toBe('running');
    expect(sut.gateway.calls.filter((c) => c.path === '/api/checkin')).toHaveLength(0);

    sut.gateway.release('/api/validation_pick');
    await until(() => sut?.controller.snapshot().validation?.outcome !== undefined, 30_000);
    expect((await state(sut)).validation?.reading).toBeUndefined();
    expect((await intent(sut, { type: 'start' })).status).toBe(200);
    await until(() => sut?.controller.snapshot().run.status === 'finished');
    expect(sut.gateway.calls.filter((c) => c.path === '/api/checkin')).toHaveLength(1);
  });
});
