-- The SQLite migration 020_health_grading on PostgreSQL: an account's own health grade rule table
-- (JSON WireHealthRule[], checked before it is written) and its SMART short self-test switch, sent
-- to its devices with the erasure policy. No row: the documented default table, no self-test.
CREATE TABLE health_gradings (
  account_id          BIGINT PRIMARY KEY REFERENCES accounts(id),
  rules               TEXT NOT NULL,
  smart_self_test     INTEGER NOT NULL CHECK (smart_self_test IN (0, 1)),
  updated_by_user_id  BIGINT REFERENCES users(id),
  updated_at          TEXT NOT NULL
);
