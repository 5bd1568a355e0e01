import { DEFAULT_ERASURE_POLICY } from '@erasure/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { simulatedServe, intent, state, type ServeSut } from '../support/serve-env.js';

type Sut = ServeSut;
let sut: Sut | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});


/** Selects every drive and types the confirmation; answers the start intent's reply. */
async function selectConfirmStart(s: Sut) {
  const devices = (await state(s)).drives.map((d) => d.device);
  await intent(s, { type: 'select', devices });
  await intent(s, { type: 'confirm', text: `ERASE ${devices.length} DRIVES` });
  return intent(s, { type: 'start' });
}

const contract = { default_method: 'nist-800-88-clear', verification: { sample: 10 }, allowed_methods: ['nist-800-88-clear', 'dod-5220.22-m-3'] };

// Issue 29 item 2: the policy reaches the device after verify allowed it; a device with a policy
// it cannot read (no answer, a refusal, a garbled one) erases nothing and says why.
describe('serve: the erasure policy of this boot', () => {
  it.each([
    ['a default method outside the allowed ones', [200, { erasure_policy: { ...contract, allowed_methods: ['dod-5220.22-m-3'] }, source: 'token' }]],
    ['an unknown method id', [200, { erasure_policy: { ...contract, default_method: 'shred', allowed_methods: ['shred'] }, source: 'token' }]],
    ['a body outside the contract', [200, { policy: 'dod' }]],
    ['a refusal', [403, { error: 'cloud rejected erasure policy: token revoked', status: 403 }]],
  ] as const)('with %s, unlocks but erases nothing: start is refused and no check-in goes out', async (_what, answer) => {
    sut = await simulatedServe({ gateway: { erasurePolicy: answer } });
    await sut.controller.bootUp();
    const s = await state(sut);
    expect(s.locked).toBe(false);
    expect(s.erasure).toMatchObject({ status: 'blocked' });
    expect(s.can.start).toBe(false);
    const started = await selectConfirmStart(sut);
    expect(started.status).toBe(409);
    expect(started.json.error).toMatch(/^nothing can be erased: the erasure policy/);
    expect(sut.gateway.calls.map((c) => c.path)).not.toContain('/api/checkin');
    expect((await state(sut)).results).toEqual([]);
  });

  it('offers the allowed methods, takes an allowed choice per drive and refuses one outside the policy in words', async () => {
    sut = await simulatedServe({ gateway: { erasurePolicy: [200, { erasure_policy: contract, source: 'token' }] } });
    await sut.controller.bootUp();
    const s = await state(sut);
    const device = s.drives[0]!.device;
    expect(s.erasure).toMatchObject({
      status: 'ready',
      source: "this device token's contract",
      default_method: 'nist-800-88-clear',
      allowed: [{ id: 'nist-800-88-clear', name: 'NIST 800-88 R2 Clear' }, { id: 'dod-5220.22-m-3', name: 'DoD 5220.22-M (3 passes)' }],
      methods: { [device]: 'nist-800-88-clear' },
    });
    expect((await intent(sut, { type: 'choose_method', device, method: 'dod-5220.22-m-3' })).json.state?.erasure).toMatchObject({ methods: { [device]: 'dod-5220.22-m-3' } });
    const refused = await intent(sut, { type: 'choose_method', device, method: 'gutmann' });
    expect(refused).toMatchObject({ status: 409, json: { error: "Gutmann (35 passes) is not allowed by this device token's contract; allowed: NIST 800-88 R2 Clear, DoD 5220.22-M (3 passes)" } });
    expect((await state(sut)).erasure).toMatchObject({ methods: { [device]: 'dod-5220.22-m-3' } });
  });

  it('erases under the built-in policy as before when the account set none', async () => {
    sut = await simulatedServe({ gateway: { erasurePolicy: [200, { erasure_policy: DEFAULT_ERASURE_POLICY, source: 'default' }] } });
    await sut.controller.bootUp();
    expect((await state(sut)).erasure).toMatchObject({ status: 'ready', default_method: 'nist-800-88-purge', refusals: {} });
    expect((await selectConfirmStart(sut)).status).toBe(200);
  });
});
