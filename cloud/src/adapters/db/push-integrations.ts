import type { ReadonlyDb, WritableDb } from './open.js';

export interface PushIntegrationRow {
  account_id: number;
  url: string;
  secret: string;
  created_at: string;
  updated_at: string;
}

export function findPushIntegration(db: ReadonlyDb, accountId: number): PushIntegrationRow | undefined {
  return db.prepare('SELECT * FROM push_integrations WHERE account_id = ?').get(accountId) as PushIntegrationRow | undefined;
}

/** Creates or replaces the account's push target in one statement. */
export function savePushIntegration(db: WritableDb, input: { accountId: number; url: string; secret: string; now: string }): void {
  db.prepare(
    `INSERT INTO push_integrations (account_id, url, secret, created_at, updated_at) VALUES (@account, @url, @secret, @now, @now)
     ON CONFLICT (account_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, updated_at = excluded.updated_at`,
  ).run({ account: input.accountId, url: input.url, secret: input.secret, now: input.now });
}

export function deletePushIntegration(db: WritableDb, accountId: number): void {
  db.prepare('DELETE FROM push_integrations WHERE account_id = ?').run(accountId);
}
