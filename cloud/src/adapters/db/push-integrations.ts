import type { SqlRunner } from '../sql/database.js';

export interface PushIntegrationRow {
  account_id: number;
  url: string;
  secret: string;
  created_at: string;
  updated_at: string;
}

export async function findPushIntegration(db: SqlRunner, accountId: number): Promise<PushIntegrationRow | undefined> {
  return db.one<PushIntegrationRow>('SELECT * FROM push_integrations WHERE account_id = @accountId', { accountId });
}

/** Creates or replaces the account's push target in one statement. */
export async function savePushIntegration(db: SqlRunner, input: { accountId: number; url: string; secret: string; now: string }): Promise<void> {
  await db.run(
    `INSERT INTO push_integrations (account_id, url, secret, created_at, updated_at) VALUES (@account, @url, @secret, @now, @now)
     ON CONFLICT (account_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, updated_at = excluded.updated_at`,
    { account: input.accountId, url: input.url, secret: input.secret, now: input.now },
  );
}

export async function deletePushIntegration(db: SqlRunner, accountId: number): Promise<void> {
  await db.run('DELETE FROM push_integrations WHERE account_id = @accountId', { accountId });
}
