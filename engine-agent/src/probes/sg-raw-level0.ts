import type { Runner } from '../adapters/runner.js';
import type { SelfEncryption } from './tcg-discovery.js';
import { parseLevel0Discovery, parseSgRawHexDump } from './tcg-level0.js';

const TOOL = 'sg_raw security protocol in' as const;

/** Bytes asked for: a level 0 discovery is a few hundred bytes; libata moves whole 512-byte blocks (4 here). */
const ALLOCATION = 2048;

/**
 * SECURITY PROTOCOL IN (SPC-4: opcode 0xA2), protocol 0x01 (TCG), protocol specific 0x0001
 * (ComID 1: level 0 discovery), INC_512 clear so the allocation length (bytes 6–9) counts bytes.
 * libata translates it to TRUSTED RECEIVE for a SATA drive whose IDENTIFY reports trusted
 * computing (ata_scsi_security_inout_xlat); a SAS drive takes it as is.
 */
export const LEVEL0_CDB = ['a2', '01', '00', '01', '00', '00', '00', '00', (ALLOCATION >> 8).toString(16).padStart(2, '0'), '00', '00', '00'] as const;

/**
 * `sg_raw -R -r 2048 <device> <cdb>`: `-R` opens the drive read-only, so closing it raises no udev
 * change event (the kernel still lets root send the command); `-r` reads the data in, which sg_raw
 * dumps in hex on stderr with the SCSI status.
 */
export const sgRawLevel0Args = (device: string): string[] => ['-R', '-r', String(ALLOCATION), device, ...LEVEL0_CDB];

/** sg3_utils' exit categories for ILLEGAL REQUEST: 9 invalid opcode, 5 another invalid field (include/sg_lib.h). */
const ILLEGAL_REQUEST_EXITS = new Set([5, 9]);

/**
 * The level 0 discovery of a SATA or SAS drive through sg_raw (sg3-utils, in the image). A drive
 * that answers ILLEGAL REQUEST has no TCG security protocol (QEMU's disks, drives without a SED
 * feature set): not self-encrypting. A spawn failure is the caller's (`no tool`).
 */
export async function sgRawSelfEncryption(run: Runner, device: string): Promise<SelfEncryption> {
  const r = await run('sg_raw', sgRawLevel0Args(device), { timeoutMs: 60_000 });
  if (r.exitCode !== null && ILLEGAL_REQUEST_EXITS.has(r.exitCode) && /Sense key: Illegal Request/.test(r.stderr)) return { kind: 'none', tool: TOOL };
  if (r.exitCode === 0 && /^No data received/m.test(r.stderr)) return { kind: 'none', tool: TOOL };
  if (r.exitCode !== 0) {
    const said = r.stderr.split('\n').map((l) => l.trim()).filter((l) => l && !/^SCSI Status: Good/.test(l))[0];
    return { kind: 'unknown', reason: `${TOOL} gave no answer${said ? `: ${said}` : r.exitCode === null ? ': stopped' : ''}` };
  }
  const bytes = parseSgRawHexDump(r.stderr);
  if (!bytes.ok) return { kind: 'unknown', reason: `${TOOL}: ${bytes.reason}` };
  const state = parseLevel0Discovery(bytes.value);
  if (!state.ok) return { kind: 'unknown', reason: `${TOOL}: ${state.reason}` };
  return state.value ? { kind: 'tcg', tool: TOOL, ...state.value } : { kind: 'none', tool: TOOL };
}
