import type { DriveCapabilities } from './capabilities.js';

/** Every erase method the agent knows, strongest first within each command set. */
export const ERASE_METHODS = [
  'nvme-sanitize-crypto',
  'nvme-sanitize-block',
  'nvme-format-crypto',
  'nvme-format-user-data',
  'nvme-sanitize-overwrite',
  'ata-sanitize-crypto',
  'ata-sanitize-block',
  'ata-sanitize-overwrite',
  'ata-secure-erase-enhanced',
  'ata-secure-erase',
  'scsi-sanitize-crypto',
  'scsi-sanitize-block',
  'scsi-sanitize-overwrite',
  'mmc-sanitize',
  'mmc-secure-erase',
  'mmc-secure-trim',
  'overwrite',
] as const;
/** One erase method id. */
export type EraseMethod = (typeof ERASE_METHODS)[number];

/** NIST SP 800-88 category of a method. */
export type NistCategory = 'Clear' | 'Purge';

/** Static description of a method. */
export interface MethodInfo {
  readonly category: NistCategory;
  readonly technique: string;
  /** The command family that carries it out (flags are checked by the driver against --help). */
  readonly command: string;
  /** True when the drive's firmware does the work (needs a direct, non-bridged path). */
  readonly firmware: boolean;
}

/** What each method is and which command runs it (ERASURE-NOTES command map). */
export const METHOD_INFO: Readonly<Record<EraseMethod, MethodInfo>> = {
  'nvme-sanitize-crypto': { category: 'Purge', technique: 'NVMe Sanitize, Crypto Erase', command: 'nvme sanitize --sanact=4', firmware: true },
  'nvme-sanitize-block': { category: 'Purge', technique: 'NVMe Sanitize, Block Erase', command: 'nvme sanitize --sanact=2', firmware: true },
  'nvme-format-crypto': { category: 'Purge', technique: 'NVMe Format, Cryptographic Erase (SES=2)', command: 'nvme format --ses=2', firmware: true },
  'nvme-format-user-data': { category: 'Purge', technique: 'NVMe Format, User Data Erase (SES=1)', command: 'nvme format --ses=1', firmware: true },
  'nvme-sanitize-overwrite': { category: 'Purge', technique: 'NVMe Sanitize, Overwrite', command: 'nvme sanitize --sanact=3', firmware: true },
  'ata-sanitize-crypto': { category: 'Purge', technique: 'ATA Sanitize, Crypto Scramble', command: 'hdparm --sanitize-crypto-scramble', firmware: true },
  'ata-sanitize-block': { category: 'Purge', technique: 'ATA Sanitize, Block Erase', command: 'hdparm --sanitize-block-erase', firmware: true },
  'ata-sanitize-overwrite': { category: 'Purge', technique: 'ATA Sanitize, Overwrite', command: 'hdparm --sanitize-overwrite', firmware: true },
  'ata-secure-erase-enhanced': { category: 'Purge', technique: 'ATA Enhanced Security Erase', command: 'hdparm --security-erase-enhanced', firmware: true },
  'ata-secure-erase': { category: 'Purge', technique: 'ATA Security Erase', command: 'hdparm --security-erase', firmware: true },
  'scsi-sanitize-crypto': { category: 'Purge', technique: 'SCSI Sanitize, Cryptographic Erase', command: 'sg_sanitize --crypto', firmware: true },
  'scsi-sanitize-block': { category: 'Purge', technique: 'SCSI Sanitize, Block Erase', command: 'sg_sanitize --block', firmware: true },
  'scsi-sanitize-overwrite': { category: 'Purge', technique: 'SCSI Sanitize, Overwrite', command: 'sg_sanitize --overwrite', firmware: true },
  // eMMC (issue 30 item 4): JEDEC JESD84 commands sent through mmc-utils; each is checked against the
  // card's EXT_CSD first. Sanitize purges the unmapped blocks, so the whole user area is trimmed first.
  'mmc-sanitize': { category: 'Purge', technique: 'eMMC Sanitize (JEDEC JESD84), after a TRIM of the whole user area', command: 'mmc erase trim, then mmc sanitize', firmware: true },
  'mmc-secure-erase': { category: 'Purge', technique: 'eMMC Secure Erase (JEDEC JESD84, CMD38) of the whole user area', command: 'mmc erase secure-erase', firmware: true },
  'mmc-secure-trim': { category: 'Purge', technique: 'eMMC Secure Trim, steps 1 and 2 (JEDEC JESD84, CMD38) of the whole user area', command: 'mmc erase secure-trim1, then secure-trim2', firmware: true },
  overwrite: { category: 'Clear', technique: 'Overwrite, single pass with verification', command: 'direct-I/O write of every LBA', firmware: false },
};

/** Result of checking one method against a drive: usable, or the reason it is not. */
export type MethodCheck = { readonly usable: true; readonly warnings: readonly string[] } | { readonly usable: false; readonly reason: string };

const no = (reason: string): MethodCheck => ({ usable: false, reason });
const yes = (...warnings: string[]): MethodCheck => ({ usable: true, warnings });

/** Options that change what is acceptable. */
export interface MethodPolicy {
  /** Sanitize/format may wipe several namespaces; refuse unless the operator accepted it. */
  readonly allowAllNamespaces?: boolean;
  /** The account has ATA master passwords (or allows the vendors' defaults) to open a drive locked with an unknown user password. */
  readonly ataMasterPasswords?: boolean;
}

function transportBlock(caps: DriveCapabilities): string | undefined {
  if (caps.viaUsbBridge) {
    return 'behind a USB bridge: SAT pass-through drops or times out long firmware commands, and an erase through a bridge has bricked drives';
  }
  if (caps.viaRaidController) return 'behind a RAID controller: firmware commands reach the controller, not the disk';
  return undefined;
}

function checkNvme(method: EraseMethod, caps: DriveCapabilities, policy: MethodPolicy): MethodCheck {
  const nvme = caps.nvme;
  if (caps.transport !== 'nvme' || !nvme) return no('not an NVMe drive');
  const ns = nvme.namespaceCount ?? 1;
  if (method.startsWith('nvme-sanitize')) {
    if (!nvme.sanitize) return no('controller reports no SANICAP (Sanitize unsupported or nvme-cli too old to show it)');
    const bit = { 'nvme-sanitize-crypto': ['crypto', 0], 'nvme-sanitize-block': ['block', 1], 'nvme-sanitize-overwrite': ['overwrite', 2] } as const;
    const [action, index] = bit[method as keyof typeof bit];
    if (!nvme.sanitize[action]) return no(`SANICAP bit ${index} (${action} erase) not set: the controller would refuse the action`);
    if (ns > 1 && !policy.allowAllNamespaces) return no(`sanitize acts on the whole NVM subsystem and would erase all ${ns} namespaces`);
    return yes('sanitize erases every namespace of the NVM subsystem', 'sanitize resumes after a power cycle: poll the sanitize log until it completes');
  }
  if (!nvme.formatSupported) return no('OACS bit 1 not set: Format NVM unsupported');
  if (method === 'nvme-format-crypto' && !nvme.formatCryptoErase) return no('FNA bit 2 not set: Format does not support cryptographic erase (SES=2)');
  if (nvme.formatAllNamespaces && ns > 1 && !policy.allowAllNamespaces) return no(`FNA says format applies to all namespaces: all ${ns} would be erased`);
  // nvme format defaults to SES=0, which erases nothing (FOG fos#125): the driver must pass --ses explicitly.
  return yes('the format command must carry --ses explicitly; SES=0 erases nothing');
}

function checkAta(method: EraseMethod, caps: DriveCapabilities, policy: MethodPolicy): MethodCheck {
  if (caps.transport !== 'sata') return no('not an ATA drive');
  const sec = caps.ataSecurity;
  if (method.startsWith('ata-sanitize')) {
    const san = caps.ataSanitize;
    if (!san) return no('SANITIZE feature set not supported');
    const action = { 'ata-sanitize-crypto': 'crypto', 'ata-sanitize-block': 'block', 'ata-sanitize-overwrite': 'overwrite' } as const;
    const name = action[method as keyof typeof action];
    if (!san[name]) return no(`SANITIZE ${name === 'crypto' ? 'CRYPTO_SCRAMBLE_EXT' : name === 'block' ? 'BLOCK_ERASE_EXT' : 'OVERWRITE_EXT'} not supported`);
    // BIOSes that freeze security normally issue SANITIZE FREEZE LOCK too, and -I cannot show the latter.
    if (sec?.frozen) return no('drive is frozen by the BIOS (freeze lock): suspend/resume or hot re-plug, then probe again');
    return yes('sanitize survives power loss: poll --sanitize-status until it completes');
  }
  if (!sec?.supported) return no('ATA Security feature set not supported');
  if (sec.frozen) return no('drive is frozen by the BIOS (SECURITY FREEZE LOCK): suspend/resume or hot re-plug, then probe again');
  // The erase step tries the master passwords, and gives a maximum-level lock its exact result (destroy).
  if (sec.locked && policy.ataMasterPasswords && !sec.countExpired) return yes(`locked with an unknown user password (security level ${sec.level ?? 'unknown'}): the account's master passwords are tried, stopping before the drive's attempt counter runs out`);
  if (sec.locked) return no('drive is locked with an unknown password: unlock it or PSID-revert it first');
  if (sec.enabled) return no('a security password is already set: the existing password is needed first');
  if (sec.countExpired) return no('security count expired: power cycle the drive before another attempt');
  if (method === 'ata-secure-erase-enhanced' && !sec.enhancedErase) return no('enhanced security erase not supported');
  return yes('power loss mid-erase leaves the drive locked with the temporary password; record it until the erase completes');
}

function checkScsi(method: EraseMethod, caps: DriveCapabilities): MethodCheck {
  if (caps.transport !== 'sas' && caps.transport !== 'scsi') return no('not a SCSI/SAS drive');
  if (!caps.scsiSanitize) return no('SCSI SANITIZE support not probed (sg_opcodes) or not supported');
  const action = { 'scsi-sanitize-crypto': 'crypto', 'scsi-sanitize-block': 'block', 'scsi-sanitize-overwrite': 'overwrite' } as const;
  const name = action[method as keyof typeof action];
  return caps.scsiSanitize[name] ? yes('sanitize continues after a power cycle: poll sg_requests --progress') : no(`SANITIZE ${name} service action not supported`);
}

const hex2 = (n: number) => `0x${n.toString(16).padStart(2, '0')}`;

/** An eMMC's erase command, against what its EXT_CSD's SEC_FEATURE_SUPPORT sets (issue 30 item 4). */
function checkMmc(method: EraseMethod, caps: DriveCapabilities): MethodCheck {
  const mmc = caps.mmc;
  if (caps.transport !== 'mmc' || !mmc) return no('not an eMMC');
  if (mmc.kind === 'sd') return no('an SD card has no EXT_CSD and no sanitize or secure erase command: it is erased by overwrite (Clear)');
  if (mmc.kind !== 'emmc') return no('the card could not be told to be an eMMC (sysfs device/type unreadable): no eMMC command is sent to it');
  const ext = mmc.extCsd;
  if (!ext) return no(`the eMMC's EXT_CSD could not be read (${mmc.extCsdMissing ?? 'not read'}): its erase commands cannot be checked, so none is sent`);
  const sec = `EXT_CSD SEC_FEATURE_SUPPORT ${hex2(ext.secFeatureSupport)}`;
  if (method === 'mmc-sanitize') {
    if (!ext.sanitize) return no(`${sec}: bit 6 (SEC_SANITIZE) not set, the eMMC has no Sanitize`);
    return yes(`${sec}: Sanitize supported (bit 6)`, 'Sanitize erases the unmapped blocks: the whole user area is trimmed first so every block is unmapped');
  }
  if (!ext.secureErase) return no(`${sec}: bit 0 (SECURE_ER_EN) not set, the eMMC has no Secure Erase or Secure Trim`);
  if (method === 'mmc-secure-trim' && !ext.trim) return no(`${sec}: bit 4 (SEC_GB_CL_EN) not set, the eMMC has no Secure Trim`);
  return yes(`${sec}: ${method === 'mmc-secure-erase' ? 'Secure Erase' : 'Secure Trim'} supported`, 'Secure Erase and Secure Trim are obsolete from eMMC 4.51 on; the card still sets them, and the erase is proven by its markers and read-back');
}

/** Checks whether one method can run on this drive, and if not, why. */
export function checkMethod(method: EraseMethod, caps: DriveCapabilities, policy: MethodPolicy = {}): MethodCheck {
  if (METHOD_INFO[method].firmware) {
    const blocked = transportBlock(caps);
    if (blocked) return no(blocked);
  }
  if (method.startsWith('nvme-')) return checkNvme(method, caps, policy);
  if (method.startsWith('ata-')) return checkAta(method, caps, policy);
  if (method.startsWith('scsi-')) return checkScsi(method, caps);
  if (method.startsWith('mmc-')) return checkMmc(method, caps);
  if (caps.rotational === false) {
    // NIST 800-88 Table A: overwrite of flash is Clear only; remapped and spare blocks keep old data.
    return yes('overwrite on flash media is Clear only: spare and remapped blocks are not reached');
  }
  return yes();
}
