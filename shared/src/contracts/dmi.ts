/**
 * DMI strings that firmware vendors leave in place of real values. They identify nothing,
 * so identity (`hardware_uid`) and promoted columns treat them as missing.
 */
const PLACEHOLDERS = new Set(
  [
    'to be filled by o.e.m.',
    'to be filled by oem',
    'default string',
    'system serial number',
    'system product name',
    'system manufacturer',
    'system version',
    'base board serial number',
    'chassis serial number',
    'not specified',
    'not applicable',
    'not available',
    'none',
    'n/a',
    'na',
    'oem',
    'o.e.m.',
    'invalid',
    'unknown',
    '0123456789',
    '123456789',
    '00000000',
    '0',
  ].map((s) => s.toLowerCase()),
);

/** A trimmed DMI value, or undefined when it is blank or a known placeholder. */
export function meaningfulDmi(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || PLACEHOLDERS.has(trimmed.toLowerCase())) return undefined;
  return trimmed;
}

/** A system UUID, or undefined when it is missing, malformed-empty, all zeros or all F. */
export function meaningfulUuid(value: unknown): string | undefined {
  const text = meaningfulDmi(value);
  if (!text) return undefined;
  const hex = text.replace(/-/g, '').toLowerCase();
  if (/^0+$/.test(hex) || /^f+$/.test(hex)) return undefined;
  return text.toLowerCase();
}

/**
 * `hardware_uid` = `<system.uuid>/<system.serial>` (spec 2, internal asset). When the machine
 * has neither a meaningful UUID nor serial, the boot's `record_id` stands in (the spec's fallback).
 */
export function hardwareUid(system: { uuid?: unknown; serial?: unknown } | undefined, recordId: string): string {
  const uuid = meaningfulUuid(system?.uuid);
  const serial = meaningfulDmi(system?.serial);
  if (!uuid && !serial) return recordId;
  return `${uuid ?? ''}/${serial ?? ''}`;
}
