/**
 * Constraint failures as either store reports them: better-sqlite3 sets `code` to
 * `SQLITE_CONSTRAINT_*`, node-postgres to the SQLSTATE (23505 unique, 23514 check, 23503 foreign key).
 */
const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** A UNIQUE or PRIMARY KEY violation. */
export const isUniqueViolation = (error: unknown): boolean => {
  const code = codeOf(error);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
};

/** A CHECK constraint violation. */
export const isCheckViolation = (error: unknown): boolean => {
  const code = codeOf(error);
  return code === 'SQLITE_CONSTRAINT_CHECK' || code === '23514';
};
