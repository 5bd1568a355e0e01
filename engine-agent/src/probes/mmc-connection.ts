import type { DriveCapabilities } from '../drives/capabilities.js';
import type { DriveConnection } from './drive-connection-types.js';
import { mmcCardWords } from './mmc-card.js';

const hex2 = (n: number) => `0x${n.toString(16).padStart(2, '0')}`;

/**
 * An eMMC or SD card's row line (issue 30 item 4): the drive row names it in plain words ("SD
 * card", "eMMC (built-in flash storage)"); the report line says what it is and why it is erased as
 * it is; the details carry the card's CID fields and EXT_CSD.
 */
export function mmcConnection(caps: DriveCapabilities): DriveConnection | undefined {
  const mmc = caps.mmc;
  if (!mmc) return undefined;
  const words = mmcCardWords(mmc.kind);
  const ext = mmc.extCsd;
  const why =
    mmc.kind === 'sd'
      ? 'an SD card has no sanitize or secure erase command, so it is erased by overwrite (NIST Clear)'
      : ext
        ? `its EXT_CSD (rev ${ext.revision}) says: sanitize ${ext.sanitize ? 'supported' : 'not supported'}, secure erase ${ext.secureErase ? 'supported' : 'not supported'}`
        : `its EXT_CSD could not be read (${mmc.extCsdMissing ?? 'not read'}), so no eMMC command is sent and it is erased by overwrite (NIST Clear)`;
  const reportLine = `Drive type: ${words}; ${why}`;
  const id = [
    mmc.name ? `product name ${mmc.name}` : undefined,
    mmc.serial ? `serial ${mmc.serial}` : undefined,
    mmc.manfid ? `manufacturer id ${mmc.manfid}` : undefined,
    mmc.date ? `made ${mmc.date}` : undefined,
  ].filter((s): s is string => s !== undefined);
  const details = [reportLine, ...(id.length ? [`Card: ${id.join(', ')}`] : []), ...(ext ? [`EXT_CSD SEC_FEATURE_SUPPORT ${hex2(ext.secFeatureSupport)}${ext.sectors ? `, ${ext.sectors} sectors (SEC_COUNT)` : ''}`] : [])];
  return { kind: 'mmc-card', summary: words, reportLine, details };
}
