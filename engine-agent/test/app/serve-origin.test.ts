import type { AgentState } from '@erasure/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { listenLoopback } from '../../src/api/serve.js';
import { postIntent } from '../support/raw-http.js';
import { simulatedServe } from '../support/serve-env.js';

type Sut = Awaited<ReturnType<typeof simulatedServe>>;
let sut: Sut | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});

/** An unlocked simulated agent listening on loopback, with its URL and its drives. */
async function unlockedAgent(): Promise<{ s: Sut; url: string; devices: string[]; port: string }> {
  sut = await simulatedServe();
  await sut.controller.bootUp();
  const url = await listenLoopback(sut.app, { HOST: '127.0.0.1', PORT: 0 });
  return { s: sut, url, devices: sut.controller.snapshot().drives.map((d) => d.device), port: new URL(url).port };
}

describe('serve API: state changes from the agent’s own page or the CLI only', () => {
  it('refuses select, confirm and start from a page of another origin on the machine with 403, and changes nothing', async () => {
    const { s, url, devices, port } = await unlockedAgent();
    const before = s.controller.snapshot();
    for (const origin of ['http://localhost:8080', `http://127.0.0.1:${Number(port) + 1}`, 'null', 'http://evil.example', `https://127.0.0.1:${port}`]) {
      for (const body of [{ type: 'select', devices }, { type: 'confirm', text: 'ERASE 2 DRIVES' }, { type: 'start' }]) {
        const r = await postIntent(url, body, { origin });
        expect({ origin, type: body.type, status: r.status, body: JSON.parse(r.body) as unknown }).toEqual({ origin, type: body.type, status: 403, body: { error: 'the agent API accepts changes from its own page only' } });
      }
    }
    const after = s.controller.snapshot();
    expect([after.selected, after.confirmation, after.run]).toEqual([before.selected, before.confirmation, before.run]);
    expect(after.selected).toEqual([]);
  });

  it('accepts a call without Origin, as the CLI and curl make it', async () => {
    const { url, devices } = await unlockedAgent();
    const r = await postIntent(url, { type: 'select', devices });
    expect(r.status).toBe(200);
    expect((JSON.parse(r.body) as { state: AgentState }).state.selected).toEqual(devices);
  });

  it('accepts the kiosk page’s own origin, under each loopback name it is served at', async () => {
    const { url, devices, port } = await unlockedAgent();
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const r = await postIntent(url, { type: 'select', devices }, { host, origin: `http://${host}` });
      expect({ host, status: r.status }).toEqual({ host, status: 200 });
    }
    const confirmed = await postIntent(url, { type: 'confirm', text: 'ERASE 2 DRIVES' }, { origin: `http://127.0.0.1:${port}` });
    expect((JSON.parse(confirmed.body) as { state: AgentState }).state.can.start).toBe(true);
  });
});
