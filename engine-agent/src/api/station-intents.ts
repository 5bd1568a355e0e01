import type { AgentIntent, StationView } from '@erasure/shared';
import type { ErasePolicy } from '../station/station.js';
import type { StationController } from './station-controller.js';
import type { IntentOutcome } from './intent-outcome.js';

/** The intents a hotswap station takes, bay by bay. */
export type StationIntent = Extract<AgentIntent, { type: 'station_wizard' | 'station_remap' | 'station_policy' | 'bay_confirm' | 'bay_confirm_waiting' | 'bay_cancel' | 'bay_locate' }>;

/** A station intent; refused before the station runs. */
export async function applyStationIntent(station: StationController | undefined, isStation: boolean, intent: StationIntent): Promise<IntentOutcome> {
  if (!station) return { ok: false, reason: isStation ? 'the station starts once this boot is unlocked' : 'this machine is not a hotswap station' };
  switch (intent.type) {
    case 'station_wizard':
      return station.wizardStep(intent.step);
    case 'station_remap':
      return station.remap();
    case 'station_policy':
      return station.setPolicy(intent.policy);
    case 'bay_confirm':
      return station.confirm(intent.lane);
    case 'bay_confirm_waiting':
      return station.confirmWaiting();
    case 'bay_cancel':
      return station.cancel(intent.lane);
    case 'bay_locate':
      return station.locate(intent.lane);
  }
}

/** The station before it runs: waiting for this boot to unlock, or refused for good (the kiosk says why). */
export function stationBeforeStart(spec: { readonly policy: ErasePolicy; readonly refused?: string }): StationView {
  return spec.refused
    ? { phase: 'failed', reason: spec.refused, policy: spec.policy, bays: [], unmapped: [], watching: false }
    : { phase: 'waiting_for_unlock', policy: spec.policy, bays: [], unmapped: [], watching: false };
}
