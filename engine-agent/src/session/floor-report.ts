import type { AgentState, FloorBay, FloorDrive, FloorDriveStage, FloorReportBody, StationBayView } from '@erasure/shared';

/** Who is reporting: fixed for the boot. */
export interface FloorIdentity {
  readonly machineId: string;
  readonly bootId: string;
  readonly name?: string;
  readonly kind: 'machine' | 'station';
}

/** The report without its place in the stream (sequence, sent_at): the reporter stamps those when it sends. */
export type FloorSnapshot = Omit<FloorReportBody, 'sequence' | 'sent_at'>;

const clip = (s: string | undefined, max: number) => (s === undefined ? undefined : s.slice(0, max));
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** A machine's drive, from what the kiosk shows: its result first (done whatever progress said), then its live progress. */
function machineDrive(state: AgentState, device: string): FloorDrive | undefined {
  const drive = state.drives.find((d) => d.device === device);
  const progress = state.progress[device];
  const result = state.results.find((r) => r.device === device);
  let stage: FloorDriveStage;
  if (result) stage = result.erased ? 'erased' : 'failed';
  else if (progress?.outcome) stage = progress.outcome;
  else if (progress) stage = progress.stage;
  else if (state.run.status === 'running') stage = 'waiting';
  else return undefined;
  const live = stage === 'prepare' || stage === 'write' || stage === 'verify' || stage === 'firmware';
  return defined({
    device: clip(device, 128)!,
    model: clip(drive?.model, 128),
    serial: clip(drive?.serial, 128),
    size_bytes: drive?.size_bytes,
    media_type: drive?.media_type,
    stage,
    method: clip(result?.method ?? (state.erasure?.status === 'ready' ? state.erasure.methods[device] : undefined), 64),
    pass: progress?.pass ?? 0,
    passes: progress?.passes,
    bytes_done: progress?.bytes_done ?? 0,
    bytes_total: progress?.bytes_total ?? drive?.size_bytes ?? 0,
    bytes_per_second: live ? progress?.bytes_per_second : undefined,
    eta_seconds: live ? progress?.eta_seconds : undefined,
    // A drive command's time comes from the plan's estimate and no byte moves on the host: the cloud must not call that a stall.
    drive_estimate: stage === 'firmware' && progress?.eta_seconds !== undefined ? true : undefined,
    error: clip(result && !result.erased ? (result.error ?? result.failure_code) : undefined, 500),
  });
}

const BAY_STAGE: Partial<Record<StationBayView['state'], FloorDriveStage>> = {
  detected: 'waiting',
  awaiting_confirmation: 'waiting',
  checking_in: 'waiting',
  erasing: 'write',
  verifying: 'verify',
  passed: 'erased',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** A bay's drive, from the bay view; a pulled drive has left the station and is not reported. */
function bayDrive(bay: StationBayView): FloorDrive | undefined {
  const stage = BAY_STAGE[bay.state];
  if (!bay.drive || !stage) return undefined;
  const total = bay.drive.size_bytes ?? 0;
  const percent = bay.state === 'verifying' ? (bay.verify_percent ?? 0) : stage === 'erased' ? 100 : (bay.progress?.percent ?? 0);
  const live = stage === 'write' || stage === 'verify';
  return defined({
    device: clip(bay.drive.device, 128)!,
    model: clip(bay.drive.model, 128),
    serial: clip(bay.drive.serial, 128),
    size_bytes: total ? Math.floor(total) : undefined,
    media_type: bay.drive.media_type,
    bay: clip(bay.label, 64),
    stage,
    method: clip(bay.progress?.method, 64),
    pass: stage === 'write' ? (bay.progress?.pass ?? 0) : 0,
    bytes_done: Math.floor((total * percent) / 100),
    bytes_total: Math.floor(total),
    bytes_per_second: live ? bay.progress?.bytes_per_second : undefined,
    eta_seconds: live ? bay.progress?.eta_seconds : undefined,
    error: stage === 'failed' ? clip(bay.reason, 500) : undefined,
  });
}

/** When a bay is expected free: now plus its drive's time left, while it erases. */
export function bayFreeAt(bay: StationBayView, nowMs: number): string | undefined {
  if (bay.state !== 'erasing' && bay.state !== 'verifying') return undefined;
  const eta = bay.progress?.eta_seconds;
  return eta === undefined ? undefined : new Date(nowMs + eta * 1000).toISOString();
}

/**
 * The machine's whole live state as the floor view reads it: the same state the kiosk shows
 * (AgentState), so the floor never says something the machine's own screen does not.
 */
export function buildFloorSnapshot(state: AgentState, identity: FloorIdentity, nowMs: number): FloorSnapshot {
  const station = state.station;
  const drives: FloorDrive[] = [];
  let bays: FloorBay[] | undefined;
  if (station) {
    bays = station.bays.map((bay) =>
      defined({ label: clip(bay.label, 64)!, state: bay.state, device: clip(bay.drive?.device, 128), free_at: bayFreeAt(bay, nowMs) }),
    );
    for (const bay of station.bays) {
      const d = bayDrive(bay);
      if (d) drives.push(d);
    }
  } else {
    const devices = new Set([...state.selected, ...Object.keys(state.progress), ...state.results.map((r) => r.device)]);
    for (const device of devices) {
      const d = machineDrive(state, device);
      if (d) drives.push(d);
    }
  }
  return defined({
    machine_id: identity.machineId,
    boot_id: identity.bootId,
    record_id: clip(state.boot.asset_id, 64),
    name: clip(identity.name, 200),
    kind: identity.kind,
    site: clip(station?.map?.site?.trim() || undefined, 100),
    job: state.run.job,
    drives: drives.slice(0, 256),
    bays: bays?.slice(0, 256),
  });
}

/**
 * What must reach the floor at once rather than at the next tick: a drive's stage or result,
 * or a bay's state. Byte counts and rates are left out (they change every second).
 */
export function floorChangeKey(snapshot: FloorSnapshot): string {
  const drives = snapshot.drives.map((d) => `${d.device}:${d.stage}`).join(',');
  const bays = (snapshot.bays ?? []).map((b) => `${b.label}:${b.state}`).join(',');
  return `${drives}|${bays}|${snapshot.record_id ?? ''}`;
}
