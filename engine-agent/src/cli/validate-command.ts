import type { CloudClient } from '../adapters/cloud-client.js';
import type { Expected } from '../validate/expected.js';
import { validateAndReport } from '../validate/report-validation.js';

/** `--expect zeros | random | pattern:HEX` (what the erasure method left), or why not. */
export function parseExpected(value: string | undefined): Expected | string {
  if (value === undefined || value === 'zeros') return { kind: 'zeros' };
  if (value === 'random') return { kind: 'random' };
  const hex = /^pattern:((?:[0-9a-fA-F]{2}){1,64})$/.exec(value)?.[1];
  if (hex) return { kind: 'pattern', pattern: Buffer.from(hex, 'hex') };
  return `--expect ${value}: give zeros, random (after a crypto erase or a random last pass) or pattern:HEX (e.g. pattern:FF)`;
}

/**
 * `erasure-agent validate --device PATH --certificate CW-… --serial S [--expect …]`: the boot
 * image's validate mode for one drive the cloud picked (issue 29). Reads the whole drive and
 * reports the result through the gateway. Exit 0 approved, 3 rejected (both reported), 2 usage
 * or the report was not taken.
 */
export async function validateCommand(
  cloud: () => Promise<CloudClient>,
  opts: { device?: string | undefined; certificate?: string | undefined; serial?: string | undefined; expect?: string | undefined },
  out: (doc: unknown) => void,
  err: (line: string) => void,
): Promise<number> {
  if (!opts.device || !opts.certificate || !opts.serial) {
    err('usage: erasure-agent validate --device PATH --certificate CW-NNNNNN --serial SERIAL [--expect zeros|random|pattern:HEX]');
    return 2;
  }
  const expected = parseExpected(opts.expect);
  if (typeof expected === 'string') {
    err(expected);
    return 2;
  }
  const result = await validateAndReport({ cloud: await cloud() }, { device: opts.device, certificateNumber: opts.certificate, driveSerial: opts.serial, expected });
  out({ device: opts.device, result: result.read.approved ? 'approved' : 'rejected', reason: result.reason, findings: result.findings, reported: result.report.ok });
  if (!result.report.ok) {
    const e = result.report.error;
    err(`the validation was not recorded: ${e.kind === 'status' ? `HTTP ${e.status} ${JSON.stringify(e.body)}` : e.message}`);
    return 2;
  }
  return result.read.approved ? 0 : 3;
}
