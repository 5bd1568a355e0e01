import { ATA_MASTER_PASSWORD_MAX_CHARS, ATA_MASTER_PASSWORDS_MAX, type AtaMasterPasswordsGranted } from '@erasure/shared';

/**
 * An account's ATA master passwords (issue 30 item 1): what its admins may save, what the web app
 * may show of them (how many, and their labels: never a password), and what a device of the
 * account is sent with its erasure policy. Plain functions, no I/O.
 */
export interface MasterPasswordEntry {
  readonly password: string;
  readonly label: string | null;
}
export interface StoredMasterPasswords {
  readonly entries: readonly MasterPasswordEntry[];
  readonly factoryDefaults: boolean;
}

export const LABEL_MAX_CHARS = 60;

/** What the web app shows: the count and labels, and the toggle. */
export interface MasterPasswordsView {
  count: number;
  labels: (string | null)[];
  factory_defaults: boolean;
}

export const viewOf = (stored: StoredMasterPasswords | undefined): MasterPasswordsView => ({
  count: stored?.entries.length ?? 0,
  labels: stored?.entries.map((e) => e.label) ?? [],
  factory_defaults: stored?.factoryDefaults ?? false,
});

/** What a device gets with its policy; undefined when there is nothing to try (no field on the wire then). */
export function grantOf(stored: StoredMasterPasswords | undefined): AtaMasterPasswordsGranted | undefined {
  if (!stored || (stored.entries.length === 0 && !stored.factoryDefaults)) return undefined;
  return { passwords: stored.entries.map((e) => e.password), factory_defaults: stored.factoryDefaults };
}

const printable = /^[\x20-\x7e]+$/;

/**
 * Checks an admin's save: `{passwords?: [{password, label?}], factory_defaults: boolean}`.
 * `passwords` absent keeps the saved ones (only the toggle changes); present, it replaces them all.
 * Errors name the entry by its position, never by its password.
 */
export function parseMasterPasswordsSave(
  body: unknown,
  current: StoredMasterPasswords | undefined,
): { ok: true; value: StoredMasterPasswords } | { ok: false; error: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'send {"passwords": [{"password": "…", "label": "…"}], "factory_defaults": true|false}' };
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => k !== 'passwords' && k !== 'factory_defaults');
  if (unknown.length > 0) return { ok: false, error: `unknown field: ${unknown.join(', ')}` };
  if (typeof b.factory_defaults !== 'boolean') return { ok: false, error: 'factory_defaults must be true or false' };
  if (b.passwords === undefined) return { ok: true, value: { entries: current?.entries ?? [], factoryDefaults: b.factory_defaults } };
  if (!Array.isArray(b.passwords)) return { ok: false, error: 'passwords must be a list' };
  if (b.passwords.length > ATA_MASTER_PASSWORDS_MAX) return { ok: false, error: `at most ${ATA_MASTER_PASSWORDS_MAX} master passwords (a drive allows only a few attempts per power cycle)` };
  const entries: MasterPasswordEntry[] = [];
  for (const [i, raw] of b.passwords.entries()) {
    const n = i + 1;
    if (typeof raw !== 'object' || raw === null) return { ok: false, error: `master password ${n}: send {"password": "…", "label": "…"}` };
    const { password, label, ...rest } = raw as Record<string, unknown>;
    if (Object.keys(rest).length > 0) return { ok: false, error: `master password ${n}: unknown field: ${Object.keys(rest).join(', ')}` };
    if (typeof password !== 'string' || password.length === 0) return { ok: false, error: `master password ${n} is empty` };
    if (password.length > ATA_MASTER_PASSWORD_MAX_CHARS) return { ok: false, error: `master password ${n} is longer than ${ATA_MASTER_PASSWORD_MAX_CHARS} characters (the ATA limit)` };
    if (!printable.test(password)) return { ok: false, error: `master password ${n} has characters other than printable ASCII` };
    if (label !== undefined && label !== null && typeof label !== 'string') return { ok: false, error: `master password ${n}: label must be text` };
    const l = typeof label === 'string' ? label.trim() : '';
    if (l.length > LABEL_MAX_CHARS) return { ok: false, error: `master password ${n}: label is longer than ${LABEL_MAX_CHARS} characters` };
    entries.push({ password, label: l.length > 0 ? l : null });
  }
  return { ok: true, value: { entries, factoryDefaults: b.factory_defaults } };
}
