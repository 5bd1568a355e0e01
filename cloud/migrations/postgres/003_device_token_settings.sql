-- The SQLite migration 010_device_token_settings on PostgreSQL: the quota and lifetime of the
-- device tokens an account's admins mint on /downloads. No row: the deployment's defaults;
-- quota_limit NULL (unlimited) only by an admin's explicit choice.
CREATE TABLE device_token_settings (
  account_id          BIGINT PRIMARY KEY REFERENCES accounts(id),
  quota_limit         INTEGER CHECK (quota_limit IS NULL OR quota_limit >= 1),
  lifetime_days       INTEGER NOT NULL CHECK (lifetime_days >= 1),
  updated_by_user_id  BIGINT REFERENCES users(id),
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL
);
