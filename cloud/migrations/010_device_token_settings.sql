-- Issue 20 (2): the quota and lifetime a device token minted on /downloads gets, per account.
-- No row: the deployment's defaults (DEVICE_TOKEN_DEFAULT_QUOTA, DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS),
-- never unlimited. quota_limit NULL is unlimited, and only an account admin's explicit choice
-- writes it (domain/devices/token-terms.ts).
CREATE TABLE device_token_settings (
  account_id          INTEGER PRIMARY KEY REFERENCES accounts(id),
  quota_limit         INTEGER CHECK (quota_limit IS NULL OR quota_limit >= 1),
  lifetime_days       INTEGER NOT NULL CHECK (lifetime_days >= 1),
  updated_by_user_id  INTEGER REFERENCES users(id),
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL
);
