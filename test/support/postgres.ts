import { startPostgres as startCluster } from './postgres-cluster.js';

/**
 * A throwaway PostgreSQL cluster for tests (postgres-cluster.js, shared with the benchmarks):
 * `initdb` and `pg_ctl` in a temporary folder, a Unix socket only, stopped and removed by `stop()`.
 */
export interface TestPostgres {
  /** Connection string of the cluster's `postgres` database. */
  adminUrl: string;
  /** The postmaster's pid. */
  serverPid(): number;
  /** Creates an empty database and answers its connection string. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}

export const startPostgres = (options: { settings?: Record<string, string> } = {}): Promise<TestPostgres> => startCluster(options);
