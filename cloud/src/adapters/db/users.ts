import { newId } from '@erasure/shared';
import type { SqlRunner } from '../sql/database.js';

export const ROLES = ['admin', 'technician', 'staff'] as const;
export type Role = (typeof ROLES)[number];

export interface UserRow {
  id: string;
  email: string;
  role: Role;
  account_id: string;
}

export async function createUser(
  db: SqlRunner,
  input: { accountId: number; email: string; passwordHash: string; role: Role; now: string; /** Display name: the technician / operator on reports. */ name?: string | null },
): Promise<UserRow> {
  const id = newId('usr');
  await db.run(
    `INSERT INTO users (public_id, account_id, email, password_hash, role, name, created_at)
     VALUES (@id, @accountId, @email, @passwordHash, @role, @name, @now)`,
    { id, accountId: input.accountId, email: input.email, passwordHash: input.passwordHash, role: input.role, name: input.name ?? null, now: input.now },
  );
  return (await db.one<UserRow>(
    `SELECT u.public_id AS id, u.email, u.role, a.public_id AS account_id
       FROM users u JOIN accounts a ON a.id = u.account_id WHERE u.public_id = @id`,
    { id },
  ))!;
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

export async function findUserByEmail(db: SqlRunner, email: string): Promise<LoginUserRow | undefined> {
  return db.one<LoginUserRow>('SELECT id, public_id, email, role, password_hash, account_id FROM users WHERE email = @email', { email });
}
