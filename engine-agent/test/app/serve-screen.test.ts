import type { AgentState } from '@erasure/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { listenLoopback } from '../../src/api/serve.js';
import { rawCall } from '../support/raw-http.js';
import { simulatedServe } from '../support/serve-env.js';

type Sut = Awaited<ReturnType<typeof simulatedServe>>;
let sut: Sut | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});

async function agent(): Promise<{ s: Sut; url: string }> {
  sut = await simulatedServe();
  const url = await listenLoopback(sut.app, { HOST: '127.0.0.1', PORT: 0 });
  return { s: sut, url };
}

const postScreen = (url: string, body: unknown) => rawCall(url, { method: 'POST', path: '/api/screen', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const stateOf = async (url: string) => JSON.parse((await rawCall(url, { path: '/api/state' })).body) as AgentState;

describe('serve API: the machine’s own screen as the kiosk shell reports it', () => {
  it('has no screen in the state until the shell reported', async () => {
    const { url } = await agent();
    expect((await stateOf(url)).screen).toBeUndefined();
  });

  it('counts each reload with its reason and keeps the renderer’s memory beside the agent’s', async () => {
    const { url } = await agent();
    expect((await postScreen(url, { status: 'showing', renderer_rss_bytes: 90_000_000 })).status).toBe(204);
    expect((await postScreen(url, { status: 'reloaded', reason: "the page's renderer is gone (killed, code 9)" })).status).toBe(204);
    expect((await postScreen(url, { status: 'showing' })).status).toBe(204);
    const screen = (await stateOf(url)).screen;
    expect(screen).toEqual({
      status: 'showing',
      reported_at: expect.any(String),
      reloads: 1,
      last_reload: { reason: "the page's renderer is gone (killed, code 9)", at: expect.any(String) },
      renderer_rss_bytes: 90_000_000,
      agent_rss_bytes: expect.any(Number),
    });
    expect(screen?.agent_rss_bytes).toBeGreaterThan(1024 * 1024);
  });

  it('refuses a report that is not one with 400 and a reason, and changes nothing', async () => {
    const { url } = await agent();
    for (const body of [{ status: 'on fire' }, { status: 'reloaded', reason: '' }, { status: 'showing', extra: 1 }, { status: 'showing', renderer_rss_bytes: -1 }, {}]) {
      const r = await postScreen(url, body);
      expect({ body, status: r.status, error: typeof (JSON.parse(r.body) as { error?: unknown }).error }).toEqual({ body, status: 400, error: 'string' });
    }
    expect((await stateOf(url)).screen).toBeUndefined();
  });

  it('refuses a report from a page of another origin with 403', async () => {
    const { url } = await agent();
    const r = await rawCall(url, { method: 'POST', path: '/api/screen', headers: { 'content-type': 'application/json', origin: 'http://evil.example' }, body: JSON.stringify({ status: 'reloaded', reason: 'x' }) });
    expect(r.status).toBe(403);
    expect((await stateOf(url)).screen).toBeUndefined();
  });
});
