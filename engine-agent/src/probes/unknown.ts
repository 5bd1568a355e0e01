/**
 * Readers for JSON that arrived as `unknown` (Signal's parseUnknown idea): each returns the
 * value only when it has the expected type, so a changed tool version degrades to `undefined`
 * instead of a wrong value flowing into the erase plan.
 */
export type JsonObject = Readonly<Record<string, unknown>>;

/** The value as a plain object, or undefined. */
export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** The value as an array, or undefined. */
export function asArray(value: unknown): readonly unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** A trimmed, non-empty string; tools pad identify strings with spaces. */
export function asText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A finite number; numeric strings (nvme-cli prints some fields quoted) are accepted. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/** A non-negative safe integer, or undefined. */
export function asCount(value: unknown): number | undefined {
  const n = asNumber(value);
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** A boolean; lsblk 2.3x prints "0"/"1" strings and newer versions real booleans. */
export function asBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1') return true;
  if (value === 0 || value === '0') return false;
  return undefined;
}

/** Follows a path of keys through nested objects. */
export function at(value: unknown, ...path: readonly string[]): unknown {
  let current: unknown = value;
  for (const key of path) {
    const object = asObject(current);
    if (!object) return undefined;
    current = object[key];
  }
  return current;
}

/** Drops keys whose value is undefined, so results compare and serialise cleanly. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
