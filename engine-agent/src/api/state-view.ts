import type { AgentDrive, DriveProgress, DriveResult, Fingerprint } from '@erasure/shared';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import type { EraseProgress } from '../erase/progress.js';
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
  };
}

/**
 * Turns raw progress into what the kiosk shows, with a rate and an ETA. The erase path reports
 * its rate only at the end of a stage, so the rate here is measured from the first report of
 * the current stage and pass (a new stage restarts the clock).
 */
export function progressTracker(now: () => number = () => performance.now()): (p: EraseProgress) => DriveProgress {
  const starts = new Map<string, { key: string; at: number; bytes: number }>();
  return (p) => {
    const key = `${p.stage}/${p.pass}`;
    let start = starts.get(p.device);
    if (!start || start.key !== key) {
      start = { key, at: now(), bytes: p.bytesDone };
      starts.set(p.device, start);
    }
    const seconds = (now() - start.at) / 1000;
    const rate = p.bytesPerSecond ?? (seconds > 0 ? (p.bytesDone - start.bytes) / seconds : undefined);
    const percent = p.percent ?? (p.bytesTotal > 0 ? Math.min(100, (p.bytesDone / p.bytesTotal) * 100) : undefined);
    const left = p.bytesTotal - p.bytesDone;
    return {
      device: p.device,
      stage: p.stage,
      pass: p.pass,
      bytes_done: p.bytesDone,
      bytes_total: p.bytesTotal,
      ...(percent !== undefined ? { percent: Math.round(percent * 10) / 10 } : {}),
      ...(rate !== undefined && rate > 0 ? { bytes_per_second: Math.round(rate) } : {}),
      ...(rate !== undefined && rate > 0 ? { eta_seconds: Math.ceil(Math.max(0, left) / rate) } : left === 0 ? { eta_seconds: 0 } : {}),
    };
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
  };
}
