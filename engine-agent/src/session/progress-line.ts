import type { DriveProgressView, JobProgressView } from './job-progress.js';

const STAGE: Record<DriveProgressView['stage'], string> = { prepare: 'preparing', write: 'writing', verify: 'verifying', firmware: 'drive erase command running' };

/** Bytes in binary units, as drive tools print them (`4.8 MiB`, `931.5 GiB`). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** A duration as technicians read it: `45 s`, `12 min 5 s`, `3 h 20 min`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** What the stage of a drive is, with its pass: `pass 1 of 3, writing`, `verifying (read-back)`. */
export function stageText(v: DriveProgressView): string {
  if (v.stage === 'write' && v.passes !== undefined) return `pass ${v.pass} of ${v.passes}, writing`;
  if (v.stage === 'verify') return 'verifying (read-back)';
  return STAGE[v.stage];
}

/** The job part of a line: `job: 1 of 4 drives done, 20 s elapsed, 2 min 5 s left`. */
export function jobText(j: JobProgressView): string {
  return `job: ${j.finished} of ${j.drives} drives done, ${formatDuration(j.elapsedSeconds)} elapsed${j.etaSeconds !== undefined ? `, ${formatDuration(j.etaSeconds)} left` : ''}`;
}

/**
 * One console line of a drive's progress, the headless run's and `run`'s: stage and pass n of
 * N, percent, bytes, rate, elapsed and time left for this drive, then the whole job's.
 */
export function progressLine(v: DriveProgressView, j: JobProgressView): string {
  if (v.outcome) return `finished ${v.device}: ${v.outcome} after ${formatDuration(v.elapsedSeconds)}; ${jobText(j)}`;
  const parts = [
    stageText(v),
    ...(v.percent !== undefined ? [`${Math.floor(v.percent)}%`] : []),
    ...(v.bytesTotal > 0 && v.stage !== 'firmware' ? [`${formatBytes(v.bytesDone)} of ${formatBytes(v.bytesTotal)}`] : []),
    ...(v.bytesPerSecond !== undefined ? [`${(v.bytesPerSecond / 1e6).toFixed(1)} MB/s`] : []),
    `${formatDuration(v.elapsedSeconds)} elapsed`,
    ...(v.etaSeconds !== undefined ? [`${formatDuration(v.etaSeconds)} left`] : []),
  ];
  return `progress ${v.device}: ${parts.join(', ')}; ${jobText(j)}`;
}
