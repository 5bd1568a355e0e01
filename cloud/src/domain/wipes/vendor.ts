/**
 * Drive vendors by how their model strings begin (spec 4.5: Vendor is derived from the model).
 * Order matters: more specific patterns come before shorter ones that would also match.
 */
const VENDOR_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/^SAMSUNG\b|^MZ[0-9A-Z]/, 'Samsung'],
  [/^WDC\b|^WD[C_ ]|^WD\d|^WESTERN DIGITAL/, 'Western Digital'],
  [/^SEAGATE\b|^ST\d/, 'Seagate'],
  [/^TOSHIBA\b/, 'Toshiba'],
  [/^KIOXIA\b/, 'Kioxia'],
  [/^HGST\b|^HUS|^HUH/, 'HGST'],
  [/^HITACHI\b/, 'Hitachi'],
  [/^MICRON\b|^MTFD/, 'Micron'],
  [/^CRUCIAL\b|^CT\d/, 'Crucial'],
  [/^INTEL\b|^SSDPE|^SSDSC/, 'Intel'],
  [/^KINGSTON\b|^SA400|^SKC\d|^SNV\d|^SEDC/, 'Kingston'],
  [/^SANDISK\b/, 'SanDisk'],
  [/^SK ?HYNIX\b|^HYNIX\b|^HFS\d|^HFM\d|^HFB/, 'SK hynix'],
  [/^LENOVO\b/, 'Lenovo'],
  [/^APPLE\b/, 'Apple'],
  [/^ADATA\b|^XPG\b/, 'ADATA'],
  [/^CORSAIR\b/, 'Corsair'],
  [/^LITE-?ON\b/, 'Lite-On'],
  [/^MAXTOR\b/, 'Maxtor'],
  [/^HPE?\b/, 'HP'],
  [/^DELL\b/, 'Dell'],
  [/^TRANSCEND\b|^TS\d+G/, 'Transcend'],
  [/^PNY\b/, 'PNY'],
  [/^QEMU\b/, 'QEMU'],
  [/^VBOX\b/, 'VirtualBox'],
];

/** The vendor of a drive from its model string, or null when no known prefix matches. */
export function driveVendor(model: string | null | undefined): string | null {
  if (!model) return null;
  // smartctl and sg tools sometimes prefix the transport ("ATA ", "NVMe "); some firmware
  // joins vendor and model with an underscore ("Crucial_CT500MX500SSD1").
  const normalized = model.trim().toUpperCase().replace(/_/g, ' ').replace(/^(ATA|NVME|SCSI)\s+/, '');
  for (const [pattern, vendor] of VENDOR_PATTERNS) if (pattern.test(normalized)) return vendor;
  return null;
}

/** SSD or HDD from a fingerprint's media type text; anything else is unknown (null). */
export function mediaKind(mediaType: string | null | undefined): 'SSD' | 'HDD' | null {
  const text = (mediaType ?? '').toLowerCase();
  if (/ssd|nvme|flash|solid/.test(text)) return 'SSD';
  if (/hdd|rotational|hard|spinning/.test(text)) return 'HDD';
  return null;
}
