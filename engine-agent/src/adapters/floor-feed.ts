import { randomUUID } from 'node:crypto';
import { meaningfulUuid, type AgentState, type FloorReportBody } from '@erasure/shared';
import type { CloudClient } from './cloud-client.js';
import { buildFloorSnapshot, type FloorIdentity } from '../session/floor-report.js';
import { FloorReporter, type FloorSendOutcome } from '../session/floor-reporter.js';

/** What the feed listens to: the kiosk controller's state and progress events. */
export interface FloorSource {
  snapshot(): AgentState;
  on(event: 'change' | 'progress', listener: () => void): unknown;
  off(event: 'change' | 'progress', listener: () => void): unknown;
}

/** The id drawn once per boot for a machine whose firmware gives no real DMI UUID, and the boot's own id. */
const bootId = randomUUID();
const drawnMachineId = `boot-${randomUUID()}`;

function identityOf(state: AgentState, station: boolean): FloorIdentity {
  const system = state.fingerprint?.system;
  const name = [system?.manufacturer, system?.product, system?.serial].filter(Boolean).join(' ');
  return { machineId: meaningfulUuid(system?.uuid) ?? drawnMachineId, bootId, kind: station ? 'station' : 'machine', ...(name ? { name } : {}) };
}

/** The gateway's answer as the reporter reads it: a 404 means the deployment has the floor view off. */
async function sendThrough(cloud: () => Promise<CloudClient>, body: FloorReportBody): Promise<FloorSendOutcome> {
  const r = await (await cloud()).call('floorReport', body);
  if (r.ok) return { kind: 'ok' };
  if (r.error.kind === 'status' && r.error.status === 404) return { kind: 'off' };
  return { kind: 'failed', why: r.error.kind === 'status' ? `status ${r.error.status}` : `${r.error.kind}: ${r.error.message}` };
}

/**
 * Feeds the floor view from the kiosk's own state: only once this boot is unlocked (the device
 * token allowed, as for every device write), never in the way of an erase (nothing awaits it).
 */
export function startFloorFeed(source: FloorSource, cloud: () => Promise<CloudClient>, options: { station: boolean; intervalMs?: number; log?: (m: string) => void }): () => void {
  const reporter = new FloorReporter({
    now: () => Date.now(),
    setTimer: (fn, ms) => {
      const t = setTimeout(fn, ms);
      t.unref();
      return () => clearTimeout(t);
    },
    send: (body) => sendThrough(cloud, body),
    log: options.log ?? ((m) => process.stderr.write(`erasure-agent: ${m}\n`)),
    ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
  });
  const onState = () => {
    if (!reporter.active) return;
    const state = source.snapshot();
    if (state.locked) return;
    reporter.offer(buildFloorSnapshot(state, identityOf(state, options.station), Date.now()));
  };
  source.on('change', onState);
  source.on('progress', onState);
  return () => {
    reporter.stop();
    source.off('change', onState);
    source.off('progress', onState);
  };
}
