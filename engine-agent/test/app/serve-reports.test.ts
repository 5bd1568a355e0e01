import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { AgentState } from '@erasure/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { listenLoopback } from '../../src/api/serve.js';
import { simulatedServe, until } from '../support/serve-env.js';

type Sut = Awaited<ReturnType<typeof simulatedServe>>;
let sut: Sut | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});

const intent = (s: Sut, body: object) => s.app.inject({ method: 'POST', url: '/api/intents', payload: body });
const state = async (s: Sut) => (await s.app.inject({ method: 'GET', url: '/api/state' })).json() as AgentState;
const callsTo = (s: Sut, path: string) => s.gateway.calls.filter((c) => c.path === path);

describe('serve API: hardware test results and notes', () => {
  it('sends nothing before the asset report is acknowledged, then the full snapshot on every settled change', async () => {
    sut = await simulatedServe({ gateway: { hold: new Set(['/api/record']) } });
    const s = sut;
    const boot = s.controller.bootUp();
    await until(() => s.controller.snapshot().boot.phase === 'unlocked');
    expect((await intent(s, { type: 'set_test_result', id: 'keyboard', status: 'passed' })).statusCode).toBe(200);
    await until(() => s.controller.snapshot().reports.tests === 'waiting');
    expect(callsTo(s, '/api/tests')).toEqual([]); // the record is still unanswered (spec 4.1 rule 4)
    s.gateway.release('/api/record');
    await boot;
    await until(() => s.controller.snapshot().reports.tests === 'sent');
    await intent(s, { type: 'set_test_result', id: 'webcam', status: 'failed', detail: 'no image' });
    await until(() => callsTo(s, '/api/tests').length === 2 && s.controller.snapshot().reports.tests === 'sent');
    const paths = s.gateway.calls.map((c) => c.path);
    expect(paths.indexOf('/api/record')).toBeLessThan(paths.indexOf('/api/tests'));
    const [record] = callsTo(s, '/api/record');
    expect(callsTo(s, '/api/tests').map((c) => c.body)).toEqual([
      { record_id: record?.body.record_id, tests: { keyboard: { status: 'passed' } } },
      { record_id: record?.body.record_id, tests: { keyboard: { status: 'passed' }, webcam: { status: 'failed', detail: 'no image' } } },
    ]);
    expect((await state(s)).tests).toEqual({ keyboard: { status: 'passed' }, webcam: { status: 'failed', detail: 'no image' } });
    expect(callsTo(s, '/api/tests').every((c) => c.authorization?.startsWith('Bearer '))).toBe(true);
  });

  it('debounces notes: a burst of edits sends only the last text, once', async () => {
    sut = await simulatedServe({ notesDebounceMs: 100 });
    const s = sut;
    await s.controller.bootUp();
    for (const notes of ['Scr', 'Scratch on lid', 'Scratch on lid, hinge loose']) await intent(s, { type: 'set_notes', notes });
    expect((await state(s)).notes).toBe('Scratch on lid, hinge loose');
    await until(() => s.controller.snapshot().reports.notes === 'sent');
    await new Promise((r) => setTimeout(r, 150));
    expect(callsTo(s, '/api/notes').map((c) => c.body.notes)).toEqual(['Scratch on lid, hinge loose']);
  });
});

describe('serve API: loopback only and the kiosk renderer', () => {
  it('binds a loopback address even when HOST asks for every interface, and refuses foreign Host headers', async () => {
    sut = await simulatedServe();
    await listenLoopback(sut.app, { HOST: '0.0.0.0', PORT: 0 });
    expect((sut.app.server.address() as AddressInfo).address).toBe('127.0.0.1');
    const foreign = await sut.app.inject({ method: 'GET', url: '/api/state', headers: { host: 'evil.example:7070' } });
    expect(foreign.statusCode).toBe(403);
    const local = await sut.app.inject({ method: 'GET', url: '/api/state', headers: { host: 'localhost:7070' } });
    expect(local.statusCode).toBe(200);
  });

  it('serves the renderer from KIOSK_RENDERER_DIR with an index.html fallback and nothing outside it', async () => {
    const renderer = join(process.env.TMPDIR ?? '/tmp', `renderer-${process.pid}-${Date.now()}`);
    mkdirSync(join(renderer, 'assets'), { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>kiosk</title>');
    writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
    sut = await simulatedServe({ env: { KIOSK_RENDERER_DIR: renderer } });
    const get = (url: string) => sut!.app.inject({ method: 'GET', url });
    const index = await get('/');
    expect([index.statusCode, index.headers['content-type'], index.body]).toEqual([200, 'text/html; charset=utf-8', '<!doctype html><title>kiosk</title>']);
    expect((await get('/assets/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await get('/drives/confirm')).body).toContain('<title>kiosk</title>'); // client-side route
    expect((await get('/assets/missing.js')).statusCode).toBe(404);
    // Encoded slashes survive URL parsing and decode to a path outside the folder: refused.
    expect((await get('/..%2f..%2f..%2fetc%2fpasswd')).statusCode).toBe(404);
    // Dot segments are resolved by URL parsing first, so this stays inside and gets the app.
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).body).not.toContain('root:');
    expect((await get('/api/nothing')).json()).toEqual({ error: 'not found' });
    expect((await get('/api/state')).statusCode).toBe(200);
  });

  it('sends the kiosk page and its files with X-Frame-Options DENY and frame-ancestors none: no other page may frame it', async () => {
    const renderer = join(process.env.TMPDIR ?? '/tmp', `renderer-${process.pid}-${Date.now()}`);
    mkdirSync(join(renderer, 'assets'), { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>kiosk</title>');
    writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
    sut = await simulatedServe({ env: { KIOSK_RENDERER_DIR: renderer } });
    for (const url of ['/', '/drives/confirm', '/assets/app.js']) {
      const res = await sut.app.inject({ method: 'GET', url });
      expect([url, res.statusCode, res.headers['x-frame-options'], res.headers['content-security-policy']]).toEqual([url, 200, 'DENY', "frame-ancestors 'none'"]);
    }
  });

  it('serves no renderer when the folder has no index.html', async () => {
    sut = await simulatedServe();
    expect((await sut.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(404);
  });
});
