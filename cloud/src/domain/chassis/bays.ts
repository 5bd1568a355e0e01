import type { Bay } from '@erasure/shared';

const nonBlank = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The bays worth keeping (spec 2, chassis map): `lane` and `label` must be non-blank strings
 * or the bay is dropped; `connector` survives only when it is an object.
 */
export function usableBays(bays: readonly unknown[] | undefined): Bay[] {
  const kept: Bay[] = [];
  for (const bay of bays ?? []) {
    if (!isPlainObject(bay) || !nonBlank(bay.lane) || !nonBlank(bay.label)) continue;
    const usable: Bay = { lane: bay.lane, label: bay.label };
    if (isPlainObject(bay.connector)) usable.connector = bay.connector;
    kept.push(usable);
  }
  return kept;
}
