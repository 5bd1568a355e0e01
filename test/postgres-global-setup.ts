import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { startPostgres } from './support/postgres.js';
import { migratePostgres } from '../cloud/src/adapters/sql/migrations.js';
import { PostgresDatabase } from '../cloud/src/adapters/sql/postgres.js';

/** The migrated database every test's PostgreSQL store is copied from (CREATE DATABASE … TEMPLATE). */
export const TEMPLATE_DATABASE = 'erasure_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of the throwaway cluster's `postgres` database. */
    postgresAdminUrl: string;
  }
}

/**
 * For the `cloud on postgres` project: one throwaway cluster for the whole run, with a template
 * database migrated once, so each test cloud gets a fresh database in one fast file copy.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await startPostgres();
  const templateUrl = await postgres.createDatabase(TEMPLATE_DATABASE);
  const template = PostgresDatabase.open(templateUrl, { max: 1 });
  try {
    await migratePostgres(template);
  } finally {
    await template.close();
  }
  // A template must have no other sessions while it is copied: mark it as one and leave it.
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE ${TEMPLATE_DATABASE} WITH IS_TEMPLATE true`);
  } finally {
    await admin.end();
  }
  project.provide('postgresAdminUrl', postgres.adminUrl);
  return () => postgres.stop();
}
