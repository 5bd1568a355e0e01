import Database from 'better-sqlite3';
import { migratePostgres } from './migrations.js';
import type { PostgresDatabase } from './postgres.js';

/**
 * Tables filled by triggers on PostgreSQL as the rows they derive from arrive: copying them too
 * would collide with what the trigger already wrote. Their counts are still checked.
 */
const DERIVED = new Set(['asset_drives']);
const NOT_DATA = new Set(['schema_migrations']);

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table. */
const BATCH = 500;

export class CopyRefused extends Error {}

/**
 * Tables in an order where every table comes after the tables its foreign keys name. Ordinary
 * tables only: the wipes search's FTS5 table and its shadow tables (SQLite migration 029) are an
 * index, which PostgreSQL keeps its own way (migration 022) and fills as the rows arrive.
 */
function tablesInDependencyOrder(source: Database.Database): string[] {
  const names = (source.prepare(`SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all() as string[])
    .filter((name) => !NOT_DATA.has(name))
    .sort();
  const parents = new Map(
    names.map((name) => [
      name,
      new Set((source.pragma(`foreign_key_list(${name})`) as { table: string }[]).map((fk) => fk.table).filter((t) => t !== name)),
    ]),
  );
  const ordered: string[] = [];
  while (ordered.length < names.length) {
    const ready = names.filter((name) => !ordered.includes(name) && [...parents.get(name)!].every((p) => ordered.includes(p)));
    if (ready.length === 0) throw new Error('foreign keys form a cycle');
    ordered.push(...ready);
  }
  return ordered;
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * Copies a whole SQLite cloud database into an empty PostgreSQL one: the schema is migrated
 * first, then every table in foreign-key order in ONE transaction (all or nothing), keeping
 * every id, and each identity sequence is moved past the highest copied id. The SQLite side is
 * read inside one read transaction, so a server still running on the file gives a consistent
 * snapshot. Refuses a target that already holds data: merging two clouds is not a copy.
 * Answers the row count of each table, checked equal on both sides before COMMIT.
 */
export async function copySqliteToPostgres(sqlitePath: string, target: PostgresDatabase): Promise<Record<string, number>> {
  const source = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  try {
    await migratePostgres(target);
    const tables = tablesInDependencyOrder(source);
    const counts: Record<string, number> = {};
    source.exec('BEGIN');
    try {
      await target.transaction(async (tx) => {
        for (const table of tables) {
          const present = await tx.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${quote(table)}`);
          if (!DERIVED.has(table) && present!.n > 0) throw new CopyRefused(`the PostgreSQL database already holds ${table} rows; copy into an empty database`);
        }
        for (const table of tables) {
          const columns = (source.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
          if (!DERIVED.has(table)) {
            let batch: Record<string, unknown>[] = [];
            const flush = async () => {
              if (batch.length === 0) return;
              const params: Record<string, unknown> = {};
              const rows = batch.map((row, r) =>
                `(${columns.map((column, c) => {
                  params[`p${r}_${c}`] = row[column];
                  return `@p${r}_${c}`;
                }).join(', ')})`,
              );
              await tx.run(`INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES ${rows.join(', ')}`, params);
              batch = [];
            };
            for (const row of source.prepare(`SELECT * FROM ${quote(table)}`).iterate() as Iterable<Record<string, unknown>>) {
              batch.push(row);
              if (batch.length === BATCH) await flush();
            }
            await flush();
          }
          const copied = (source.prepare(`SELECT COUNT(*) FROM ${quote(table)}`).pluck().get() as number);
          const landed = (await tx.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${quote(table)}`))!.n;
          if (copied !== landed) throw new Error(`${table}: ${copied} rows in SQLite but ${landed} in PostgreSQL`);
          counts[table] = landed;
          if (columns.includes('id')) {
            await tx.one(
              `SELECT setval(pg_get_serial_sequence(@table, 'id'), COALESCE((SELECT MAX(id) FROM ${quote(table)}), 0) + 1, false)
                WHERE pg_get_serial_sequence(@table, 'id') IS NOT NULL`,
              { table },
            );
          }
        }
      });
    } finally {
      source.exec('COMMIT');
    }
    return counts;
  } finally {
    source.close();
  }
}
