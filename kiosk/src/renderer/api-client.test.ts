import { describe, expect, it } from 'vitest';
import { createAgentApi, reconnectDelay, type ConnectionStatus, type EventSourceLike } from './api-client.js';
import { agentState } from './store/test-fixtures.js';

/** A controllable EventSource: the test emits events and errors. */
class FakeStream implements EventSourceLike {
  onopen: ((e: unknown) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  closed = false;
  readonly listeners = new Map<string, (e: { data: string }) => void>();
  constructor(readonly url: string) {}
  addEventListener(type: string, l: (e: { data: string }) => void) {
    this.listeners.set(type, l);
  }
  emit(type: string, data: unknown) {
    this.listeners.get(type)?.({ data: typeof data === 'string' ? data : JSON.stringify(data) });
  }
  close() {
    this.closed = true;
  }
}

function setup(fetchImpl: typeof fetch = async () => new Response('{}')) {
  const streams: FakeStream[] = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const api = createAgentApi('http://127.0.0.1:7070', {
    fetch: fetchImpl,
    openStream: (url) => {
      const s = new FakeStream(url);
      streams.push(s);
      return s;
    },
    schedule: (fn, ms) => {
      timers.push({ fn, ms });
      return () => undefined;
    },
  });
  const seen: { states: unknown[]; progress: unknown[]; connection: ConnectionStatus[] } = { states: [], progress: [], connection: [] };
  const stop = api.subscribe({ onState: (s) => seen.states.push(s), onProgress: (p) => seen.progress.push(p), onConnection: (c) => seen.connection.push(c) });
  return { api, streams, timers, seen, stop };
}

describe('the agent client', () => {
  it('goes live on the first valid state and passes states and progress on', () => {
    const { streams, seen } = setup();
    expect(streams[0]?.url).toBe('http://127.0.0.1:7070/api/events');
    streams[0]?.emit('state', agentState());
    streams[0]?.emit('progress', { device: '/d', stage: 'write', pass: 1, bytes_done: 1, bytes_total: 2 });
    expect(seen.connection.at(-1)).toEqual({ status: 'live' });
    expect(seen.states).toHaveLength(1);
    expect(seen.progress).toHaveLength(1);
  });

  it('drops payloads that do not match the contract instead of applying them', () => {
    const { streams, seen } = setup();
    streams[0]?.emit('state', { ...agentState(), locked: 'no' });
    streams[0]?.emit('state', 'not json');
    streams[0]?.emit('progress', { device: '/d' });
    expect(seen.states).toEqual([]);
    expect(seen.progress).toEqual([]);
    expect(seen.connection.at(-1)).toMatchObject({ status: 'connecting', lastError: expect.stringMatching(/does not understand/) });
  });

  it('reconnects with growing delays after an error and counts the attempts', () => {
    const { streams, timers, seen } = setup();
    streams[0]?.onerror?.({});
    expect(streams[0]?.closed).toBe(true);
    expect(seen.connection.at(-1)).toMatchObject({ status: 'connecting', attempt: 1, retryInMs: 500 });
    timers[0]?.fn();
    streams[1]?.onerror?.({});
    expect(seen.connection.at(-1)).toMatchObject({ attempt: 2, retryInMs: 1000 });
    expect(reconnectDelay(10)).toBe(5000);
  });

  it('posts intents as JSON and returns the agent’s refusal text', async () => {
    const calls: Array<{ url: string; body: string }> = [];
    const { api } = setup(async (url, init) => {
      calls.push({ url: String(url), body: String(init?.body) });
      return new Response(JSON.stringify({ error: 'select drives and type the confirmation first' }), { status: 409 });
    });
    expect(await api.send({ type: 'start' })).toEqual({ ok: false, error: 'select drives and type the confirmation first' });
    expect(calls).toEqual([{ url: 'http://127.0.0.1:7070/api/intents', body: '{"type":"start"}' }]);
  });

  it('reports an unreachable agent as a refusal, never as success', async () => {
    const { api } = setup(async () => Promise.reject(new TypeError('fetch failed')));
    expect(await api.send({ type: 'refresh' })).toEqual({ ok: false, error: 'the agent does not answer (fetch failed)' });
  });
});
