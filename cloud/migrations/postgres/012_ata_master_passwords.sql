-- The SQLite migration 019_ata_master_passwords on PostgreSQL: an account's ATA master passwords
-- (JSON [{"password", "label"}], write-only in the web app, sent to its devices with the erasure
-- policy only) and whether the makers' factory master passwords may be tried too.
CREATE TABLE ata_master_passwords (
  account_id          BIGINT PRIMARY KEY REFERENCES accounts(id),
  entries             TEXT NOT NULL,
  factory_defaults    INTEGER NOT NULL,
  updated_by_user_id  BIGINT REFERENCES users(id),
  updated_at          TEXT NOT NULL
);
