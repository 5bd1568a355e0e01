-- The SQLite migration 016_erasure_policies on PostgreSQL: an account's erasure policy (default
-- method, verification level, allowed methods) and a device token's own policy that overrides
-- it, each the JSON of `ErasurePolicy`. No account row: the built-in default; token NULL: the
-- account's policy.
CREATE TABLE erasure_policies (
  account_id          BIGINT PRIMARY KEY REFERENCES accounts(id),
  policy              TEXT NOT NULL,
  updated_by_user_id  BIGINT REFERENCES users(id),
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL
);
ALTER TABLE license_tokens ADD COLUMN erasure_policy TEXT;
