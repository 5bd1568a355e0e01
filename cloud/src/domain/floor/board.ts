import { FLOOR_LOST_CONTACT_MS, type FloorBoard, type FloorBoardDrive, type FloorBoardMachine, type FloorDriveStage } from '@erasure/shared';
import type { FloorMachineRow, FloorResultRow } from '../../adapters/db/floor-machines.js';
import { stalledSince } from './stalls.js';

/** A stall is no byte progress for this long, unless the account sets its own (issue 32). */
export const DEFAULT_STALL_SECONDS = 600;
/** Rows last heard this long ago end: the board no longer shows them. */
export const FLOOR_ROW_LIFETIME_MS = 24 * 60 * 60 * 1000;

const STAGE_OF_RESULT: Record<FloorResultRow['status'], FloorDriveStage> = { completed: 'erased', failed: 'failed', cancelled: 'cancelled' };

/**
 * The floor board of one account from each machine's latest report and the wipe results stored
 * since that machine's boot was first heard. A drive whose result is in is shown with it, and
 * with the stage the result says, whatever the last report said: the board never shows a drive
 * as running after its result arrived. A machine silent for FLOOR_LOST_CONTACT_MS is "lost
 * contact", with the time it was last heard.
 */
export function buildFloorBoard(input: { machines: readonly FloorMachineRow[]; results: readonly FloorResultRow[]; now: Date; stallSeconds?: number }): FloorBoard {
  return {
    now: input.now.toISOString(),
    stall_seconds: input.stallSeconds ?? DEFAULT_STALL_SECONDS,
    machines: input.machines.map((row) => machineOf(row, input.results, input.now, input.stallSeconds ?? DEFAULT_STALL_SECONDS)),
  };
}

function machineOf(row: FloorMachineRow, results: readonly FloorResultRow[], at: Date, stallSeconds: number): FloorBoardMachine {
  const now = at.getTime();
  const { report } = row;
  const mine = results.filter((r) => r.token_id === row.token_id && r.created_at >= row.boot_seen_at);
  // A station's chassis map says where it stands; else the token's site.
  const site = report.site ?? row.site;
  return {
    machine_id: row.machine_id,
    ...(report.name ? { name: report.name } : {}),
    kind: report.kind,
    ...(site ? { site } : {}),
    last_report_at: row.received_at,
    lost_contact: now - Date.parse(row.received_at) > FLOOR_LOST_CONTACT_MS,
    ...(report.job ? { job: report.job } : {}),
    drives: report.drives.map((d) => {
      const since = stalledSince(d, row.progress[d.device], at, stallSeconds);
      const drive = driveOf(d, mine);
      return since && !drive.result ? { ...drive, stalled_since: since } : drive;
    }),
    ...(report.bays ? { bays: report.bays } : {}),
  };
}

function driveOf(drive: FloorMachineRow['report']['drives'][number], results: readonly FloorResultRow[]): FloorBoardDrive {
  const serial = drive.serial?.trim();
  // The newest result of this drive since the boot was first heard.
  const result = serial
    ? results.filter((r) => r.drive_serial.trim() === serial).sort((a, b) => (a.created_at < b.created_at ? 1 : -1))[0]
    : undefined;
  if (!result) return drive;
  return {
    ...drive,
    stage: STAGE_OF_RESULT[result.status],
    result: { status: result.status, ...(result.certificate_number ? { certificate_number: result.certificate_number } : {}) },
  };
}
