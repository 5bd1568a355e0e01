import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** A handle that may write. Repositories that only read take {@link ReadonlyDb}. */
export type WritableDb = Database.Database & { readonly __writable: true };
export type ReadonlyDb = Database.Database & { readonly __readonly?: true };

const MIGRATIONS_DIR = new URL('../../../migrations/', import.meta.url);

/**
 * Opens (creating if needed) the cloud's SQLite file in WAL mode and applies pending migrations.
 * `synchronous=FULL`: a 2xx to a device means the write survived a power cut, not just a crash.
 * `busy_timeout` lets the admin CLI and a separate worker write while the server runs.
 */
export function openDatabase(path: string): WritableDb {
  const db = openConnection(path);
  migrate(db);
  return db;
}

/** The connection {@link openDatabase} makes, before migrations (`erasure-cloud migrate` runs them itself). */
export function openConnection(path: string): WritableDb {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db as WritableDb;
}

/** The line a migration that rebuilds tables carries (see {@link migrate}). */
export const REBUILDS_TABLES = '-- sqlite: rebuilds tables (foreign keys off)';

/** Applies every `NNN_name.sql` in migrations/ not yet recorded, each in its own transaction. */
export function migrate(db: Database.Database, dir: URL = MIGRATIONS_DIR): string[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set(
    db.prepare('SELECT version FROM schema_migrations').pluck().all() as string[],
  );
  const files = readdirSync(dir).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).sort();
  const record = db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)');
  const ran: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = readFileSync(new URL(file, dir), 'utf8');
    // SQLite changes a CHECK only by rebuilding the table (its "12-step" procedure), and dropping
    // the old table with foreign keys on would cascade into its children's rows. Such a migration
    // says so on a line of its own; it runs with foreign keys off (a pragma that only takes effect
    // outside a transaction) and commits only if every reference still holds.
    const rebuilds = sql.includes(REBUILDS_TABLES);
    const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
    if (rebuilds) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(sql);
        if (rebuilds && (db.pragma('foreign_key_check') as unknown[]).length > 0) throw new Error(`${file} left a foreign key dangling`);
        record.run(file, new Date().toISOString());
      }).immediate();
    } finally {
      if (rebuilds) db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
    }
    ran.push(file);
  }
  return ran;
}

const statementCache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * `db.prepare(sql)` memoised per connection. Preparing parses and plans the SQL, which costs more
 * than running a point query, so hot paths (verify, check-in) must not prepare per request.
 * Callers must not flip a cached statement's modes (`pluck`, `raw`, `expand`): use the
 * `pluck` variant below for single-column reads.
 */
export function prepared(db: Database.Database, sql: string): Database.Statement {
  let cache = statementCache.get(db);
  if (!cache) {
    cache = new Map();
    statementCache.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}

/** A cached statement in pluck mode (first column only), kept apart from the plain cache. */
export function preparedPluck(db: Database.Database, sql: string): Database.Statement {
  return prepared(db, `${sql} /* pluck */`).pluck();
}
