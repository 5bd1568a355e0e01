import { afterEach, describe, expect, it } from 'vitest';
import { intent, simulatedServe, state, until, type ServeSut } from '../support/serve-env.js';

describe('serve and the floor view', () => {
  let sut: ServeSut | undefined;
  afterEach(async () => {
    await sut?.close();
    sut = undefined;
  });

  it('stops reporting for the rest of the boot when the deployment has the floor view off (404)', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    await until(() => sut!.gateway.floorReports.length === 1);
    const devices = (await state(sut)).drives.map((d) => d.device);
    await intent(sut, { type: 'select', devices });
    await intent(sut, { type: 'confirm', text: `ERASE ${devices.length} DRIVES` });
    expect((await intent(sut, { type: 'start' })).status).toBe(200);
    await until(() => sut!.controller.snapshot().run.status === 'finished', 30_000);
    expect(sut.gateway.floorReports).toHaveLength(1);
  }, 60_000);

  it('reports nothing while the boot is locked', async () => {
    sut = await simulatedServe({ gateway: { floorView: true, verify: { allow: false, reason: 'token revoked' } } });
    await sut.controller.bootUp();
    expect((await state(sut)).locked).toBe(true);
    sut.controller.emit('change', sut.controller.snapshot());
    await new Promise((r) => setTimeout(r, 200));
    expect(sut.gateway.floorReports).toHaveLength(0);
  }, 30_000);
});
