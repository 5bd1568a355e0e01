import type { AgentState } from '@erasure/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { simulatedServe, until } from '../support/serve-env.js';

type Sut = Awaited<ReturnType<typeof simulatedServe>>;
let sut: Sut | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});

const intent = async (s: Sut, body: unknown) => {
  const r = await s.app.inject({ method: 'POST', url: '/api/intents', payload: body as object });
  return { status: r.statusCode, json: r.json() as { ok?: true; state?: AgentState; error?: string } };
};
const state = async (s: Sut) => (await s.app.inject({ method: 'GET', url: '/api/state' })).json() as AgentState;

describe('serve API: the method the operator chooses per drive (issue 29)', () => {
  it('refuses an unknown method, or one for a drive not selected, with the reason, and selects nothing', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    const [first, second] = (await state(sut)).drives.map((d) => d.device) as [string, string];
    const unknown = await intent(sut, { type: 'select', devices: [first], methods: { [first]: 'dod-99' } });
    expect(unknown.status).toBe(409);
    expect(unknown.json.error).toMatch(new RegExp(`^${first}: "dod-99" is not an erasure method this engine knows`));
    const other = await intent(sut, { type: 'select', devices: [first], methods: { [second]: 'gutmann' } });
    expect(other).toMatchObject({ status: 409, json: { error: `a method was chosen for ${second}, which is not selected` } });
    expect((await state(sut)).selected).toEqual([]);
  });

  it('erases a drive with the chosen DoD 5220.22-M (3 passes) and the other with the default, and reports each by its method', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    const devices = (await state(sut)).drives.map((d) => d.device) as [string, string];
    expect((await intent(sut, { type: 'select', devices, methods: { [devices[0]]: 'dod-5220.22-m-3' } })).status).toBe(200);
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
