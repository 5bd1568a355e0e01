import type { AgentDrive, AgentState, DriveProgress, DriveResult, Fingerprint } from '@erasure/shared';
import { healthView } from '../health/health-view.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import { describeSelfEncryption, sedLocked } from '../probes/tcg-discovery.js';
import { psidReverter } from '../drives/sed-lock.js';
import type { DriveEstimate, DriveProgressView, JobProgressView } from '../session/job-progress.js';
import type { DriveReport } from '../session/types.js';
import type { CertificateView } from './certificate-numbers.js';

/**
 * The fingerprint sections the kiosk shows (its Machine page and the detection-only tests):
 * identity, parts, adapters and firmware. Diagnostic detail (thermals, fans, power supplies,
 * baseboard) stays out of a state that is re-sent on every change.
 */
export const MACHINE_SECTIONS = ['system', 'bios', 'firmware', 'tpm', 'cpu', 'memory', 'gpus', 'storage', 'batteries', 'displays', 'network', 'wifi_adapters', 'bluetooth', 'audio_devices', 'usb'] as const;

/** The machine summary of AgentState: the fingerprint's MACHINE_SECTIONS, as collected. */
export function machineSummary(fp: Fingerprint): Fingerprint {
  const all = fp as Record<string, unknown>;
  return Object.fromEntries(MACHINE_SECTIONS.filter((k) => all[k] !== undefined).map((k) => [k, all[k]])) as Fingerprint;
}

/** A discovered drive as the kiosk shows it: identity, media type and the planned erase. */
/** A physical disk behind a RAID virtual disk, as its own row. */
const hiddenView = (h: NonNullable<NonNullable<DiscoveredDrive['connection']>['hidden']>[number]) => ({
  device: `${h.through} (${h.deviceType})`,
  ...(h.model ? { model: h.model } : {}),
  ...(h.serial ? { serial: h.serial } : {}),
  ...(h.capacityBytes !== undefined ? { size_bytes: h.capacityBytes } : {}),
  reason: h.reason,
});

export function driveView(d: DiscoveredDrive): AgentDrive {
  const c = d.capabilities;
  const p = d.plan;
  return {
    device: d.device,
    ...(c.model ? { model: c.model } : {}),
    ...(c.serial ? { serial: c.serial } : {}),
    ...(c.sizeBytes !== undefined ? { size_bytes: c.sizeBytes } : {}),
    ...(c.rotational !== undefined ? { media_type: c.rotational ? ('HDD' as const) : ('SSD' as const) } : {}),
    transport: c.transport,
    internal: d.internal,
    plan: p.ok
      ? {
          ok: true,
          method: p.method,
          label: p.label,
          category: p.category,
          technique: p.technique,
          ...(p.expectedMinutes !== undefined ? { expected_minutes: p.expectedMinutes } : {}),
          ...(p.durationSource ? { duration_source: p.durationSource } : {}),
          fully_sanitized: p.fullySanitized,
          warnings: [...p.warnings],
        }
      : { ok: false, reason: p.reason },
    ...selfEncryptionView(d),
    ...(d.connection ? { connection: { summary: d.connection.summary, details: [...d.connection.details], ...(d.connection.hidden?.length ? { hidden: d.connection.hidden.map(hiddenView) } : {}) } } : {}),
  };
}

/**
 * The drive row's self-encryption words, for a drive known to be self-encrypting. "Unknown: …"
 * (no tool could ask, or the drive gave no usable answer) stays a fact of the probe, off the row.
 */
function selfEncryptionView(d: DiscoveredDrive): Pick<AgentDrive, 'self_encryption'> {
  const words = d.capabilities.selfEncryption?.kind === 'tcg' ? describeSelfEncryption(d.capabilities.selfEncryption) : undefined;
  const locked = sedLocked(d.capabilities.selfEncryption);
  // A locked drive this image cannot revert gets no PSID dialog: its plan's reason says where to take it.
  const elsewhere = locked && psidReverter(d.capabilities.selfEncryption) === 'none';
  return words ? { self_encryption: { words, locked, ...(elsewhere ? { revert_here: false } : {}) } } : {};
}

/** One drive's progress on the wire (the kiosk's rows, the SSE `progress` event). */
export function progressWire(v: DriveProgressView): DriveProgress {
  return {
    device: v.device,
    stage: v.stage,
    pass: v.pass,
    ...(v.passes !== undefined ? { passes: v.passes } : {}),
    bytes_done: v.bytesDone,
    bytes_total: v.bytesTotal,
    ...(v.percent !== undefined ? { percent: v.percent } : {}),
    ...(v.bytesPerSecond !== undefined ? { bytes_per_second: v.bytesPerSecond } : {}),
    elapsed_seconds: v.elapsedSeconds,
    ...(v.etaSeconds !== undefined ? { eta_seconds: v.etaSeconds } : {}),
    ...(v.outcome ? { outcome: v.outcome } : {}),
  };
}

/** The job line of `run`: drives finished of all, elapsed, time left until the slowest drive is done. */
export function jobWire(j: JobProgressView): NonNullable<AgentState['run']['job']> {
  return { drives: j.drives, finished: j.finished, elapsed_seconds: j.elapsedSeconds, ...(j.etaSeconds !== undefined ? { eta_seconds: j.etaSeconds } : {}) };
}

/** What a job's progress measures each drive against: its size, and the plan's estimate. */
export function driveEstimate(d: DiscoveredDrive): DriveEstimate {
  const p = d.plan;
  return {
    device: d.device,
    ...(d.capabilities.sizeBytes !== undefined ? { sizeBytes: d.capabilities.sizeBytes } : {}),
    firmware: p.ok && p.method !== 'overwrite',
    ...(p.ok && p.expectedMinutes !== undefined ? { expectedSeconds: p.expectedMinutes * 60 } : {}),
  };
}

/** One drive's report as the results screen shows it, with its certificate as last looked up. */
export function resultView(r: DriveReport, certificate?: CertificateView): DriveResult {
  const o = r.outcome;
  return {
    device: o.device,
    method: o.method,
    erased: o.ok,
    refused: o.refused,
    ...(o.failureCode ? { failure_code: o.failureCode } : {}),
    passes: o.passes,
    verification: o.verification,
    ...(o.verificationHash ? { verification_hash: o.verificationHash } : {}),
    job_id: r.jobId,
    completed_at: o.completedAt,
    delivered: r.delivered,
    ...(r.wipeResultId ? { wipe_result_id: r.wipeResultId } : {}),
    ...(certificate ? { certificate_status: certificate.certificate_status, certificate_number: certificate.certificate_number } : r.certificateStatus !== undefined ? { certificate_status: r.certificateStatus } : {}),
    ...(r.error ? { error: r.error } : {}),
    ...(r.deliveryRefused ? { delivery_refused: true } : {}),
    ...(o.ok && o.health ? { health: healthView(o.health) } : {}),
    ...(!o.ok && o.disposition ? { disposition: o.disposition } : {}),
  };
}
