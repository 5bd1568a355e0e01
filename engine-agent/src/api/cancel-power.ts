import type { AgentState, DriveProgress } from '@erasure/shared';

/** Per drive of the running erase: may the operator cancel it now, and if not, why (the wire `run.cancel`). */
export type CancelView = NonNullable<AgentState['run']['cancel']>;

/** Said instead of a Cancel button while a drive erases itself. */
export const FIRMWARE_CANNOT_STOP = 'The drive is erasing itself (firmware erase): this cannot be stopped once started. It finishes on its own.';

/**
 * Which drives of a running erase a cancel can still stop. A drive waiting to start, preparing,
 * writing or reading back can (an overwrite stops between blocks; a queued drive is reported
 * cancelled without a byte written). A drive whose firmware erase command is out cannot: the
 * drive finishes it on its own, and is then reported as it ended (never as cancelled). A drive
 * that finished, or is already stopping, has nothing left to cancel.
 */
export function cancelView(progress: Readonly<Record<string, DriveProgress>>, devices: readonly string[], cancelled: ReadonlySet<string>, firmware: (device: string) => boolean): CancelView {
  const out: Record<string, CancelView[string]> = {};
  for (const device of devices) {
    const p = progress[device];
    if (p?.outcome !== undefined) out[device] = { can_cancel: false };
    else if (cancelled.has(device)) out[device] = { can_cancel: false, stopping: true };
    // Once the drive command is out, even the read-back after it belongs to the firmware erase.
    else if (p?.stage === 'firmware' || (p?.stage === 'verify' && firmware(device))) out[device] = { can_cancel: false, note: FIRMWARE_CANNOT_STOP };
    else out[device] = { can_cancel: true };
  }
  return out;
}

export type PowerAction = 'poweroff' | 'reboot';

/** The one command for each power action, run through the tool runner (as headless `erasure.after=poweroff` does). */
export function powerCommand(action: PowerAction): { tool: string; args: string[] } {
  return { tool: 'systemctl', args: [action, '--no-block'] };
}
