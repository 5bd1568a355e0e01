import { parsed, unparsable, type ParseResult } from './parse-result.js';
import { asCount, asObject } from './unknown.js';

/** Where a sanitize stands, whichever command set reported it. */
export type SanitizeState = 'idle' | 'in_progress' | 'completed' | 'failed' | 'frozen' | 'never';

/** A sanitize status reading. */
export interface SanitizeStatus {
  readonly state: SanitizeState;
  /** 0-100 while in progress, when reported. */
  readonly percent?: number;
  /** NVMe SSTAT bit 8: all user data was erased by the last sanitize (or never written). */
  readonly globalDataErased?: boolean;
  /**
   * NVMe: the AUSE bit of the Sanitize command that started the last sanitize (SCDW10 bit 3).
   * After a failure it decides the way out (NVMe base spec, Sanitize Operations): unrestricted
   * completion mode (AUSE=1) allows a Sanitize with Exit Failure Mode (SANACT=1); restricted
   * mode (AUSE=0) leaves only a new sanitize that completes.
   */
  readonly unrestrictedCompletion?: boolean;
}

/** Decodes NVMe SSTAT bits 2:0 (NVMe base spec, Sanitize Status log page). */
export function decodeSstat(sstat: number): SanitizeState {
  switch (sstat & 0x7) {
    case 0:
      return 'never';
    case 1:
    case 4: // completed successfully with No-Deallocate After Sanitize honoured or deallocation done
      return 'completed';
    case 2:
      return 'in_progress';
    case 3:
      return 'failed';
    default:
      return 'failed';
  }
}

/**
 * Parses `nvme sanitize-log -o json`: nvme-cli nests the page under the device name
 * (`{"nvme0": {"sprog": 65535, "sstat": 257, ...}}`), some builds print it flat.
 */
export function parseNvmeSanitizeLog(input: unknown): ParseResult<SanitizeStatus> {
  const top = asObject(input);
  if (!top) return unparsable('sanitize log JSON is not an object');
  const page = top.sstat !== undefined ? top : Object.values(top).map(asObject).find((o) => o?.sstat !== undefined);
  const sstat = asCount(page?.sstat);
  if (!page || sstat === undefined) return unparsable('no sstat in sanitize log JSON');
  const sprog = asCount(page.sprog);
  const cdw10 = asCount(page.cdw10_info);
  const state = decodeSstat(sstat);
  return parsed({
    state,
    // SPROG counts to 65536ths; nvme-cli shows 65535 once done.
    ...(sprog !== undefined && state === 'in_progress' ? { percent: Math.floor((sprog * 100) / 65536) } : {}),
    globalDataErased: (sstat & 0x100) !== 0,
    ...(cdw10 !== undefined ? { unrestrictedCompletion: (cdw10 & 0x8) !== 0 } : {}),
  });
}

/**
 * Parses `hdparm --sanitize-status`: "State:    SD2 Sanitize operation In Process",
 * "Progress: 0x41c2 (25%)", "Last Sanitize Operation Completed Without Error" (hdparm 9.5x strings).
 */
export function parseHdparmSanitizeStatus(text: string): ParseResult<SanitizeStatus> {
  const sd = /State:\s*SD(\d)/.exec(text)?.[1];
  if (sd === undefined) return unparsable('no "State: SDn" line in hdparm --sanitize-status output');
  const percent = /Progress:\s*0x[0-9a-f]+\s*\((\d+)%\)/i.exec(text)?.[1];
  const withoutError = /Completed Without Error/i.test(text);
  const withError = /Completed With Error|Operation Failed|completed unsuccessfully/i.test(text);
  const state: SanitizeState =
    sd === '1' ? 'frozen' : sd === '2' ? 'in_progress' : sd === '3' || withError ? 'failed' : sd === '4' || withoutError ? 'completed' : 'idle';
  return parsed({ state, ...(percent !== undefined ? { percent: Number(percent) } : {}) });
}
