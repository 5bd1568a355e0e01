import { newId } from '@erasure/shared';
import type { ReadonlyDb, WritableDb } from './open.js';

export const ROLES = ['admin', 'technician', 'staff'] as const;
export type Role = (typeof ROLES)[number];

export interface UserRow {
  id: string;
  email: string;
  role: Role;
  account_id: string;
}

export function createUser(
  db: WritableDb,
  input: { accountId: number; email: string; passwordHash: string; role: Role; now: string; /** Display name: the technician / operator on reports. */ name?: string | null },
): UserRow {
  const id = newId('usr');
  db.prepare(
    'INSERT INTO users (public_id, account_id, email, password_hash, role, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(id, input.accountId, input.email, input.passwordHash, input.role, input.name ?? null, input.now);
  return db
    .prepare(
      `SELECT u.public_id AS id, u.email, u.role, a.public_id AS account_id
         FROM users u JOIN accounts a ON a.id = u.account_id WHERE u.public_id = ?`,
    )
    .get(id) as UserRow;
}

/** What sign-in needs of a user: the stored hash and where the user belongs. */
export interface LoginUserRow {
  id: number;
  public_id: string;
  email: string;
  role: Role;
  password_hash: string;
  account_id: number;
}

export function findUserByEmail(db: ReadonlyDb, email: string): LoginUserRow | undefined {
  return db
    .prepare('SELECT id, public_id, email, role, password_hash, account_id FROM users WHERE email = ?')
    .get(email) as LoginUserRow | undefined;
}
