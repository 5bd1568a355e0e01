import { describe, expect, it } from 'vitest';
import { agentState } from '../store/test-fixtures.js';
import { formatBytes, formatDuration, formatMinutes } from '../format.js';
import { confirmationOf, driveRows } from './drives/drive-rows.js';
import { jobLine, progressRows, resultRows, runHeadline } from './erase/erase-view.js';
import { LAYOUT_CODES, escapeStreak, missingKeys } from './hardware-tests/keyboard-layout.js';
import { detectedResults, TEST_IDS } from './hardware-tests/test-catalog.js';
import { gateOf, healthAttemptText, plainReason } from './locked/gate.js';
import { machineFacts } from './machine/machine-facts.js';

const ssd = {
  device: '/sim/a.img',
  model: 'SIM SSD',
  serial: 'S1',
  size_bytes: 64_000_000,
  media_type: 'SSD' as const,
  transport: 'sata',
  internal: true,
  plan: { ok: true as const, method: 'overwrite-1', label: 'NIST 800-88 R2 Clear', category: 'Clear' as const, technique: 'Overwrite, 1 pass, verified', expected_minutes: 1, duration_source: 'estimate' as const, fully_sanitized: true, warnings: ['ATA security is frozen: firmware erase unavailable'] },
};
const usb = { ...ssd, device: '/dev/sdz', model: undefined, internal: false, plan: { ok: false as const, reason: 'behind a USB bridge: firmware commands refused' } };

describe('the boot gate', () => {
  it('stays locked until the agent says unlocked, and never unlocks without a snapshot', () => {
    expect(gateOf(undefined).state).toBe('checking');
    expect(gateOf(agentState({ locked: true, boot: { phase: 'verify' } }))).toMatchObject({ state: 'checking', text: 'Checking this device’s licence…' });
    expect(gateOf(agentState({ locked: true, boot: { phase: 'unlocked' } })).state).toBe('checking');
    expect(gateOf(agentState())).toEqual({ state: 'unlocked', account: 'Acme Refurb' });
  });

  it('shows a denial in plain words with the reason code kept', () => {
    const sut = gateOf(agentState({ locked: true, boot: { phase: 'denied', reason: 'revoked' } }));
    expect(sut).toMatchObject({ state: 'denied', reason: 'revoked' });
    expect(sut.state === 'denied' && sut.text).toMatch(/revoked/);
    expect(plainReason('gateway unreachable after 3 attempts: fetch failed')).toMatch(/cannot be reached/);
    expect(plainReason('quota_exceeded')).toMatch(/no erasures left/);
    expect(plainReason('something new')).toBe('The erasure service refused: something new');
  });
});

describe('the health attempts on the connecting screen', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  it('says which attempt runs, why the last failed and when the next starts', () => {
    expect(healthAttemptText({ phase: 'health', attempt: 1, max_attempts: 3 }, now)).toBe('Attempt 1 of 3 — trying now.');
    const waiting = { phase: 'health' as const, attempt: 2, max_attempts: 3, last_error: 'gateway unreachable: fetch failed', next_attempt_at: '2026-11-22T12:00:03.200Z' };
    expect(healthAttemptText(waiting, now)).toBe('Attempt 2 of 3 — the last one failed: gateway unreachable: fetch failed — next try in 4 s.');
    expect(healthAttemptText(waiting, now + 5000)).toMatch(/trying now\.$/);
    expect(healthAttemptText({ phase: 'verify' }, now)).toBeUndefined();
    expect(healthAttemptText(undefined, now)).toBeUndefined();
  });
});

describe('the drives view', () => {
  it('shows method, duration and warnings from the agent’s plan, and only selectable planned drives', () => {
    const [a, b] = driveRows(agentState({ drives: [ssd, usb], selected: ['/sim/a.img'] }));
    expect(a).toMatchObject({ title: 'SIM SSD', selected: true, selectable: true, method: 'NIST 800-88 R2 Clear — Overwrite, 1 pass, verified', duration: 'about 1 min (estimate)' });
    expect(a?.facts).toBe('64.0 MB · SSD · SATA · S/N S1');
    expect(a?.warnings).toEqual(['ATA security is frozen: firmware erase unavailable']);
    expect(b).toMatchObject({ title: '/dev/sdz', selectable: false, refusal: 'behind a USB bridge: firmware commands refused' });
    expect(b?.facts).toMatch(/external/);
  });

  it('marks a plan that leaves hidden areas as not a full sanitization', () => {
    const hpa = { ...ssd, plan: { ...ssd.plan, fully_sanitized: false, warnings: [] } };
    expect(driveRows(agentState({ drives: [hpa] }))[0]?.warnings[0]).toMatch(/Hidden areas/);
  });

  it('nothing is selectable while the agent forbids selection', () => {
    expect(driveRows(agentState({ drives: [ssd], can: { ...agentState().can, select: false } }))[0]?.selectable).toBe(false);
  });

  it('lets the operator submit only the agent’s phrase, and only when the agent allows confirm', () => {
    const snap = agentState({ selected: ['/a', '/b'], confirmation: { phrase: 'ERASE 2 DRIVES', confirmed: false }, can: { ...agentState().can, confirm: true } });
    expect(confirmationOf(snap, ' erase 2 drives ').canSubmit).toBe(true);
    expect(confirmationOf(snap, 'ERASE').canSubmit).toBe(false);
    expect(confirmationOf({ ...snap, can: { ...snap.can, confirm: false } }, 'ERASE 2 DRIVES').canSubmit).toBe(false);
  });
});

describe('the erase view', () => {
  const running = agentState({ drives: [ssd], selected: ['/sim/a.img'], run: { status: 'running', phase: 'erase' } });

  it('shows stage, pass n of N, bytes, rate, elapsed and time left for each selected drive', () => {
    const [row] = progressRows(running, { '/sim/a.img': { device: '/sim/a.img', stage: 'write', pass: 1, passes: 3, bytes_done: 32_000_000, bytes_total: 64_000_000, percent: 50, bytes_per_second: 200_000_000, elapsed_seconds: 20, eta_seconds: 125 } });
    expect(row).toEqual({ device: '/sim/a.img', title: 'SIM SSD · a.img', tone: 'running', stage: 'Writing — pass 1 of 3', percent: 50, bytes: '32.0 MB of 64.0 MB', rate: '200 MB/s', elapsed: '20 s', eta: '2 min 05 s' });
    expect(progressRows(running, {})[0]).toMatchObject({ stage: 'Waiting to start', tone: 'waiting' });
  });

  it('shows a finished drive by its outcome while others run, not "Verifying 100 %, 0 s left"', () => {
    const [row] = progressRows(running, { '/sim/a.img': { device: '/sim/a.img', stage: 'verify', pass: 0, passes: 1, bytes_done: 64_000_000, bytes_total: 64_000_000, percent: 100, elapsed_seconds: 40, eta_seconds: 0, outcome: 'erased' } });
    expect(row).toMatchObject({ tone: 'ok', stage: 'Erased and verified — result sent', percent: 100, bytes: '', rate: '–', eta: '–', elapsed: '40 s' });
  });

  it('sums the job up: drives finished, elapsed, and the time left of the slowest drive', () => {
    const two = agentState({ drives: [ssd], selected: ['/sim/a.img', '/sim/b.img'], run: { status: 'running', phase: 'erase' } });
    const base = { stage: 'write' as const, pass: 1, bytes_done: 0, bytes_total: 1 };
    expect(jobLine(two, { '/sim/a.img': { ...base, device: '/sim/a.img', elapsed_seconds: 30, eta_seconds: 0, outcome: 'erased' }, '/sim/b.img': { ...base, device: '/sim/b.img', elapsed_seconds: 31, eta_seconds: 95 } })).toBe('1 of 2 drives finished · 31 s elapsed · about 1 min 35 s left (slowest drive)');
    expect(jobLine(two, { '/sim/b.img': { ...base, device: '/sim/b.img', elapsed_seconds: 1, eta_seconds: 95 } })).toMatch(/time left not known yet$/);
  });

  it('headlines a check-in denial as blocked with nothing erased', () => {
    const sut = runHeadline(agentState({ run: { status: 'finished', phase: 'denied', exit_code: 2, reason: 'quota_exceeded' } }));
    expect(sut.tone).toBe('bad');
    expect(sut.text).toMatch(/^Erasure blocked: nothing was erased/);
    expect(runHeadline(agentState({ run: { status: 'finished', phase: 'done', exit_code: 0 } })).tone).toBe('ok');
  });

  it('lists each result with its certificate status, and an undelivered one as a failure', () => {
    const base = { device: '/sim/a.img', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'full read-back', job_id: 'job_1-0', delivered: true, wipe_result_id: 'wr_1', certificate_status: 'pending' };
    const [ok, lost] = resultRows(agentState({ drives: [ssd], results: [base, { ...base, device: '/x', delivered: false, error: 'HTTP 503' }] }));
    expect(ok).toMatchObject({ passed: true, verdict: 'Erased', certificate: 'Certificate queued' });
    expect(ok?.detail).toBe('Wipe result wr_1 · job job_1-0');
    expect(lost).toMatchObject({ passed: false, certificate: 'Result not delivered to the service' });
  });

  it('shows the certificate number once the agent looked it up, with the status until issued', () => {
    const base = { device: '/sim/a.img', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'ok', job_id: 'j-0', delivered: true, wipe_result_id: 'wr_1' };
    const rows = resultRows(
      agentState({
        results: [
          { ...base, certificate_status: 'pending', certificate_number: 'CW-000007' },
          { ...base, device: '/b', certificate_status: 'generating', certificate_number: 'CW-000008' },
          { ...base, device: '/c', certificate_status: 'complete', certificate_number: 'CW-000009' },
          { ...base, device: '/d', certificate_status: null, certificate_number: null },
        ],
      }),
    );
    expect(rows.map((r) => r.certificate)).toEqual(['Certificate CW-000007 — queued', 'Certificate CW-000008 — being generated', 'Certificate CW-000009 issued', 'Not certifiable: no certificate']);
  });
});

describe('hardware tests', () => {
  it('covers every wire id of the spec exactly once', () => {
    expect([...TEST_IDS].sort()).toEqual(['audio', 'battery', 'bluetooth', 'display', 'keyboard', 'touchscreen', 'usb_ports', 'webcam', 'wifi_adapter']);
  });

  it('reads detection-only results off the fingerprint', () => {
    expect(detectedResults({ wifi_adapters: [{ name: 'wlan0' }], bluetooth: [{ name: 'hci0' }], batteries: [{ health_pct: 80 }] } as never)).toEqual({
      wifi_adapter: { status: 'detected', detail: 'wlan0' },
      bluetooth: { status: 'detected', detail: 'hci0' },
    });
    expect(detectedResults({} as never)).toMatchObject({ wifi_adapter: { status: 'not_applicable' }, bluetooth: { status: 'not_applicable' }, battery: { status: 'not_applicable' } });
    expect(detectedResults(undefined)).toEqual({});
  });

  it('lists the keys not pressed, and ends capture on the third Escape in a row only', () => {
    expect(missingKeys(new Set(LAYOUT_CODES))).toEqual([]);
    expect(missingKeys(new Set(LAYOUT_CODES.filter((c) => c !== 'KeyQ')))).toEqual(['Q']);
    expect(new Set(LAYOUT_CODES).size).toBe(LAYOUT_CODES.length);
    let streak = 0;
    for (const code of ['Escape', 'Escape', 'KeyA', 'Escape', 'Escape']) streak = escapeStreak(streak, code);
    expect(streak).toBe(2);
    expect(escapeStreak(streak, 'Escape')).toBe(3);
  });
});

describe('machine summary and formatting', () => {
  it('puts identity first and leaves out missing sections', () => {
    const sut = machineFacts({ system: { manufacturer: 'Dell Inc.', product: 'Latitude 7490', serial: 'B5QVN32' }, memory: { total_bytes: 16e9 }, batteries: [{ health_pct: 91, cycle_count: 212 }] } as never);
    expect(sut.slice(0, 2)).toEqual([
      ['Model', 'Dell Inc. Latitude 7490'],
      ['Serial number', 'B5QVN32'],
    ]);
    expect(sut).toContainEqual(['Battery', '91% health, 212 cycles']);
    expect(sut.map(([l]) => l)).not.toContain('TPM');
  });

  it('formats sizes, durations and estimates in plain words', () => {
    expect(formatBytes(512_110_190_592)).toBe('512 GB');
    expect(formatBytes(undefined)).toBe('unknown size');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(7_620)).toBe('2 h 07 min');
    expect(formatMinutes(0.5)).toBe('under a minute');
    expect(formatMinutes(180)).toBe('about 3.0 h');
  });
});
