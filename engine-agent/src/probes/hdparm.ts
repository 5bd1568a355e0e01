import { parsed, unparsable, type ParseResult } from './parse-result.js';
import { lines, parseGroupedInt } from './text.js';
import { compact } from './unknown.js';

/** ATA Security feature set state from `hdparm -I`. */
export interface AtaSecurityState {
  readonly supported: boolean;
  readonly enabled: boolean;
  readonly locked: boolean;
  readonly frozen: boolean;
  /** Security count expired: the drive refuses further unlock attempts until power cycled. */
  readonly countExpired: boolean;
  readonly enhancedEraseSupported: boolean;
  /** Drive's own estimate; undefined when it does not report one. */
  readonly eraseMinutes?: number;
  readonly enhancedEraseMinutes?: number;
  /**
   * "Security level high|maximum", printed only while a password is set: with "high" the master
   * password can unlock or erase the drive; with "maximum" it can only erase it.
   */
  readonly level?: 'high' | 'maximum';
  /** IDENTIFY word 92; 65534 (0xFFFE) is the factory value, so another one says the master password was changed. */
  readonly masterPasswordRevision?: number;
}

/** ATA Sanitize feature set (ACS-2+). */
export interface AtaSanitizeState {
  readonly supported: boolean;
  readonly cryptoScramble: boolean;
  readonly blockErase: boolean;
  readonly overwrite: boolean;
}

/** Facts from `hdparm -I`. */
export interface HdparmIdentify {
  readonly model?: string;
  readonly serial?: string;
  readonly firmware?: string;
  readonly transport?: string;
  readonly lba48Sectors?: number;
  readonly logicalSectorSize?: number;
  readonly physicalSectorSize?: number;
  /** 0 = solid state. */
  readonly rotationRpm?: number;
  /** Every listed command/feature, with whether it is enabled (`*`). */
  readonly features: ReadonlyMap<string, boolean>;
  readonly security?: AtaSecurityState;
  readonly sanitize: AtaSanitizeState;
  readonly hpaFeature: boolean;
  readonly dcoFeature: boolean;
  /** "Device encrypts all user data": an SE on it is a crypto erase. */
  readonly encryptsAllUserData: boolean;
}

const MINUTES = /(?:more than )?(\d+)min for (ENHANCED )?SECURITY ERASE UNIT/g;

function securityOf(sectionLines: readonly string[]): AtaSecurityState | undefined {
  if (sectionLines.length === 0) return undefined;
  // Each state line is "<tab>not<tab>enabled" or "<tab><tab>enabled"; a leading "not" negates it.
  const state = (word: string): boolean | undefined => {
    const line = sectionLines.find((l) => new RegExp(`^\\s*(not\\s+)?${word}\\b`).test(l));
    return line === undefined ? undefined : !/^\s*not\s/.test(line);
  };
  const joined = sectionLines.join('\n');
  let eraseMinutes: number | undefined;
  let enhancedEraseMinutes: number | undefined;
  for (const m of joined.matchAll(MINUTES)) {
    if (m[2]) enhancedEraseMinutes = Number(m[1]);
    else eraseMinutes = Number(m[1]);
  }
  const level = /^\s*Security level (high|maximum)\b/m.exec(joined)?.[1] as 'high' | 'maximum' | undefined;
  const revision = /Master password revision code = (\d+)/.exec(joined)?.[1];
  return compact<AtaSecurityState>({
    supported: state('supported') ?? false,
    enabled: state('enabled') ?? false,
    locked: state('locked') ?? false,
    frozen: state('frozen') ?? false,
    countExpired: state('expired') ?? false,
    enhancedEraseSupported: /supported: enhanced erase/.test(joined) && !/not\s+supported: enhanced erase/.test(joined),
    eraseMinutes,
    enhancedEraseMinutes,
    level,
    masterPasswordRevision: revision === undefined ? undefined : Number(revision),
  });
}

/** Parses `hdparm -I /dev/sdX`. */
export function parseHdparmIdentify(text: string): ParseResult<HdparmIdentify> {
  if (!/^ATA device/m.test(text)) return unparsable('not hdparm -I output of an ATA device');
  const features = new Map<string, boolean>();
  const securityLines: string[] = [];
  let section = '';
  const field = new Map<string, string>();
  for (const line of lines(text)) {
    const heading = /^([A-Z][\w /-]*):\s*$/.exec(line);
    if (heading?.[1]) {
      section = heading[1];
      continue;
    }
    if (/^\S/.test(line)) section = '';
    if (section === 'Commands/features') {
      const m = /^\s+(\*?)\s+(\S.*?)\s*$/.exec(line);
      if (m?.[2] && !/^Enabled\s+Supported/.test(m[2])) features.set(m[2], m[1] === '*');
    } else if (section === 'Security') {
      securityLines.push(line);
    } else {
      const kv = /^\s+([^:=]+?)\s*[:=]\s*(.*?)\s*$/.exec(line);
      if (kv?.[1] && kv[2] !== undefined && !field.has(kv[1])) field.set(kv[1], kv[2]);
    }
  }
  const has = (name: string) => features.has(name);
  const sizeOf = (key: string) => parseGroupedInt(/^(\d+)/.exec(field.get(key) ?? '')?.[1] ?? '');
  const rotation = field.get('Nominal Media Rotation Rate');
  return parsed(
    compact<HdparmIdentify>({
      model: field.get('Model Number') || undefined,
      serial: field.get('Serial Number') || undefined,
      firmware: field.get('Firmware Revision') || undefined,
      transport: field.get('Transport') || undefined,
      lba48Sectors: sizeOf('LBA48  user addressable sectors'),
      logicalSectorSize: sizeOf('Logical  Sector size'),
      physicalSectorSize: sizeOf('Physical Sector size'),
      rotationRpm: rotation === undefined ? undefined : /Solid State/i.test(rotation) ? 0 : sizeOf('Nominal Media Rotation Rate'),
      features,
      security: securityOf(securityLines),
      sanitize: {
        supported: has('SANITIZE feature set'),
        cryptoScramble: has('CRYPTO_SCRAMBLE_EXT command'),
        blockErase: has('BLOCK_ERASE_EXT command'),
        overwrite: has('OVERWRITE_EXT command'),
      },
      hpaFeature: has('Host Protected Area feature set'),
      dcoFeature: has('Device Configuration Overlay feature set'),
      encryptsAllUserData: has('Device encrypts all user data'),
    }),
  );
}

/** `hdparm -N`: visible vs native max sectors. */
export interface HdparmHpa {
  readonly visibleSectors: number;
  readonly nativeSectors: number;
  readonly hpaEnabled: boolean;
  /** Sectors hidden from the OS (and from an overwrite) by the HPA. */
  readonly hiddenSectors: number;
}

/** Parses `hdparm -N /dev/sdX`: " max sectors   = 586070255/586072368, HPA is enabled". */
export function parseHdparmHpa(text: string): ParseResult<HdparmHpa> {
  const m = /max sectors\s*=\s*(\d+)\/(\d+),\s*HPA is (enabled|disabled)/.exec(text);
  if (!m?.[1] || !m[2] || !m[3]) return unparsable('no "max sectors" line in hdparm -N output');
  const visible = Number(m[1]);
  const native = Number(m[2]);
  return parsed({ visibleSectors: visible, nativeSectors: native, hpaEnabled: m[3] === 'enabled', hiddenSectors: native - visible });
}

/** `hdparm --dco-identify`: what the DCO could hide or disable. */
export interface HdparmDco {
  readonly revision?: number;
  /** Real max sectors per DCO; compare with the native max from -N to see a DCO-shrunk drive. */
  readonly realMaxSectors?: number;
  /** Feature words the DCO can disable, e.g. `security`, `HPA`. */
  readonly features: readonly string[];
}

/** Parses `hdparm --dco-identify /dev/sdX`. */
export function parseHdparmDco(text: string): ParseResult<HdparmDco> {
  const revision = /DCO Revision:\s*(0x[0-9a-f]+|\d+)/i.exec(text)?.[1];
  const real = /Real max sectors:\s*(\d+)/.exec(text)?.[1];
  if (revision === undefined && real === undefined) return unparsable('no DCO data in hdparm --dco-identify output');
  const features: string[] = [];
  let inSets = false;
  for (const line of lines(text)) {
    if (/command\/feature sets:/.test(line)) inSets = true;
    else if (/^\s{4}\S/.test(line) && !/command\/feature sets:/.test(line)) inSets = false;
    else if (inSets) features.push(...line.replace(/\(\?\):/, '').trim().split(/\s+/).filter(Boolean));
  }
  return parsed(
    compact<HdparmDco>({
      revision: revision === undefined ? undefined : Number(revision),
      realMaxSectors: real === undefined ? undefined : Number(real),
      features,
    }),
  );
}

/** One command hdparm said it issued (`Issuing SECURITY_ERASE command, ...`). */
export interface HdparmIssuedCommand {
  readonly device?: string;
  readonly command: string;
  readonly user?: string;
  readonly mode?: string;
}

/**
 * Parses what hdparm prints while running security commands. The agent records these lines as
 * evidence of the command actually sent; the password is deliberately not kept.
 */
export function parseHdparmIssued(text: string): ParseResult<HdparmIssuedCommand[]> {
  const issued: HdparmIssuedCommand[] = [];
  let device: string | undefined;
  for (const line of lines(text)) {
    const dev = /^(\/dev\/\S+):\s*$/.exec(line.trim());
    if (dev?.[1]) device = dev[1];
    const m = /Issuing (\S+) command(.*)$/.exec(line);
    if (!m?.[1]) continue;
    issued.push(
      compact<HdparmIssuedCommand>({
        device,
        command: m[1],
        user: /user=(\w+)/.exec(m[2] ?? '')?.[1],
        mode: /mode=(\w+)/.exec(m[2] ?? '')?.[1],
      }),
    );
  }
  return issued.length > 0 ? parsed(issued) : unparsable('hdparm reported no issued command');
}
