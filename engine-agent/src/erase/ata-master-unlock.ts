import type { HdparmIdentify } from '../probes/hdparm.js';
import { parseHdparmIdentify } from '../probes/hdparm.js';
import { ToolSpawnError, type ToolResult } from '../adapters/runner.js';
import { CommandLog, complaint, type DriverDeps } from './driver-kit.js';
import type { FirmwareTiming } from './nvme.js';
import { MAXIMUM_LOCKED_WORDS } from '../drives/ata-lock.js';

/** The master passwords an account configured, and whether the vendors' factory defaults may be tried too. */
export interface AtaMasterPasswords {
  readonly account: readonly string[];
  readonly vendorDefaults: boolean;
}

/**
 * The ATA spec's attempt counter: a drive counts failed SECURITY UNLOCK / ERASE UNIT passwords
 * and, at five, sets "expired: security count" and refuses every password until it is
 * power-cycled. The agent stops one short of it, since a BIOS may already have spent one.
 */
export const ATTEMPTS_PER_POWER_CYCLE = 5;
export const ATTEMPT_MARGIN = 1;
export const MAX_ATTEMPTS = ATTEMPTS_PER_POWER_CYCLE - ATTEMPT_MARGIN;

/** What a factory master password revision code (IDENTIFY word 92) reads when nobody changed the master password. */
export const FACTORY_MASTER_REVISION = 65534;

/**
 * Factory master passwords by the drive model's prefix, as data-recovery forums and tool
 * vendors publish them (none is a vendor's own documentation): "Seagate" padded with spaces to
 * 32 bytes (forum.hddguru.com viewtopic t=21534, "Seagate+25SPC"); "WDCWDCWDCWDCWDCWDCWDCWDCWDCWDC"
 * plus two spaces for Western Digital and 32 spaces for Hitachi/HGST, IBM, Fujitsu, Toshiba, and 32
 * "t" for Samsung (forum.hddguru.com t=8374; the "list of known master passwords" on
 * royalprice.ru/en/windows-overview/...unlock-ata-password-hdd-spisok-izvestnyh). They are tried
 * only while the drive's master password revision is the factory one.
 */
const VENDOR_DEFAULTS: readonly { readonly model: RegExp; readonly make: string; readonly password: string }[] = [
  { model: /^(ST|Seagate)/i, make: 'Seagate', password: `Seagate${' '.repeat(25)}` },
  { model: /^WDC?\b|^WD\d/i, make: 'Western Digital', password: `${'WDC'.repeat(10)}  ` },
  { model: /^(Hitachi|HGST|HTS|HDS|HUS|IC\d|IBM)/i, make: 'Hitachi/HGST/IBM', password: ' '.repeat(32) },
  { model: /^(Fujitsu|MH[VWYZ])/i, make: 'Fujitsu', password: ' '.repeat(32) },
  { model: /^(Toshiba|MK\d)/i, make: 'Toshiba', password: ' '.repeat(32) },
  { model: /^(Samsung|HD\d|HM\d)/i, make: 'Samsung', password: 't'.repeat(32) },
];

/** The documented factory master password for a drive's make, if any. */
export function vendorDefaultMaster(model: string | undefined): { make: string; password: string } | undefined {
  const hit = model === undefined ? undefined : VENDOR_DEFAULTS.find((v) => v.model.test(model.trim()));
  return hit ? { make: hit.make, password: hit.password } : undefined;
}

/** How the drive was opened: `notLocked` when no unlock was needed (the normal erase then runs). */
export type MasterUnlock =
  | { readonly ok: true; readonly notLocked: true; readonly commands: readonly string[] }
  | { readonly ok: true; readonly notLocked?: false; readonly password: string; readonly source: string; readonly commands: readonly string[] }
  | { readonly ok: false; readonly code: 'locked' | 'tool_missing' | 'command_failed'; readonly disposition: 'review' | 'destroy'; readonly reason: string; readonly commands: readonly string[] };

export const MASKED = '<master-password>';

/** A tool's complaint with every candidate password cut out: hdparm echoes the password it sent. */
function scrubbed(r: ToolResult, secrets: readonly string[]): string {
  let text = complaint(r);
  for (const s of secrets) if (s.trim().length > 0) text = text.split(s).join(MASKED);
  return text.replace(/password="[^"]*"/g, `password="${MASKED}"`);
}

/**
 * A drive locked with a user password nobody knows: with security level "high" the master
 * password unlocks it (SECURITY UNLOCK, user-master m). Tries the account's master passwords,
 * then the make's factory default when allowed, re-reading the security state after each
 * failure and stopping before the drive counts the attempts out. The password that worked is
 * returned for the SECURITY ERASE UNIT that follows, and never appears in a command or reason.
 */
export async function unlockWithMaster(deps: DriverDeps, device: string, masters: AtaMasterPasswords, timing: FirmwareTiming): Promise<MasterUnlock> {
  const log = new CommandLog(deps);
  const identify = async (): Promise<HdparmIdentify | string> => {
    const r = await log.run('hdparm', ['-I', device], timing.commandTimeoutMs);
    const id = parseHdparmIdentify(r.stdout);
    return id.ok ? id.value : `hdparm -I unreadable: ${id.reason}`;
  };
  const fail = (code: 'locked' | 'command_failed', reason: string, disposition: 'review' | 'destroy' = 'review'): MasterUnlock => ({ ok: false, code, disposition, reason, commands: log.commands });
  try {
    return await tryMasters(device, masters, timing, log, identify, fail);
  } catch (error) {
    if (error instanceof ToolSpawnError) return { ok: false, code: 'tool_missing', disposition: 'review', reason: error.message, commands: log.commands };
    throw error;
  }
}

async function tryMasters(
  device: string,
  masters: AtaMasterPasswords,
  timing: FirmwareTiming,
  log: CommandLog,
  identify: () => Promise<HdparmIdentify | string>,
  fail: (code: 'locked' | 'command_failed', reason: string, disposition?: 'review' | 'destroy') => MasterUnlock,
): Promise<MasterUnlock> {
  const first = await identify();
  if (typeof first === 'string') return fail('command_failed', first);
  const sec = first.security;
  if (!sec?.locked) return { ok: true, notLocked: true, commands: log.commands };
  if (sec.level === 'maximum') {
    return fail('locked', MAXIMUM_LOCKED_WORDS, 'destroy');
  }
  if (sec.countExpired) return fail('locked', EXPIRED);
  const candidates: { password: string; source: string }[] = masters.account.filter((p) => p.length > 0).map((password, i) => ({ password, source: `the account's master password ${i + 1}` }));
  const vendor = vendorDefaultMaster(first.model);
  const factory = sec.masterPasswordRevision === undefined || sec.masterPasswordRevision === FACTORY_MASTER_REVISION;
  if (masters.vendorDefaults && vendor && factory && !candidates.some((c) => c.password === vendor.password)) {
    candidates.push({ password: vendor.password, source: `the ${vendor.make} factory master password` });
  }
  if (candidates.length === 0) {
    const why = masters.vendorDefaults && vendor && !factory ? ` (its master password was changed from the factory one, revision code ${sec.masterPasswordRevision})` : '';
    return fail('locked', `the drive is locked with a user password nobody here knows, and there is no master password to try${why}: add the fleet's master password to the account, or erase it elsewhere`);
  }
  const secrets = candidates.map((c) => c.password);
  let tried = 0;
  for (const c of candidates) {
    if (tried >= MAX_ATTEMPTS) break;
    tried++;
    const r = await log.run('hdparm', ['--user-master', 'm', '--security-unlock', c.password, device], timing.commandTimeoutMs, c.password, MASKED);
    const after = await identify();
    if (typeof after === 'string') return fail('command_failed', after);
    if (after.security && !after.security.locked) return { ok: true, password: c.password, source: c.source, commands: log.commands };
    if (after.security?.countExpired) return fail('locked', `${EXPIRED} (${tried} password${tried === 1 ? '' : 's'} tried, the last: ${scrubbed(r, secrets)})`);
  }
  const left = candidates.length - tried;
  if (left > 0) {
    return fail('locked', `none of the ${tried} master passwords tried unlocked the drive, and ${left} more were not tried: the drive allows ${ATTEMPTS_PER_POWER_CYCLE} attempts per power cycle and the agent stops at ${MAX_ATTEMPTS}. Power-cycle the drive and erase it again to try the others.`);
  }
  return fail('locked', `the drive is locked with a user password, and none of the ${tried} master password${tried === 1 ? '' : 's'} tried unlocked it (${candidates.map((c) => c.source).join(', ')})`);
}

const EXPIRED = 'the drive has counted out password attempts until it is power-cycled: power it off and on (unplug and replug it) before it is erased again';
