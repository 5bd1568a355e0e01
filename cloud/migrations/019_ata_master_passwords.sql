-- Issue 30 (1): an account's ATA master passwords, for drives that arrive locked with an unknown
-- user password. Set by the account's admins in the web app (write-only: the app shows how many
-- and their labels, never a password) and sent to its devices with the erasure policy only.
-- `entries`: JSON [{"password": "…", "label": "…"|null}], checked by the cloud before it is
-- written (domain/erasure-policy/ata-master-passwords.ts). `factory_defaults` 1: the makers'
-- published factory master passwords may be tried too. No row: none set, no factory defaults.
CREATE TABLE ata_master_passwords (
  account_id          INTEGER PRIMARY KEY REFERENCES accounts(id),
  entries             TEXT NOT NULL,
  factory_defaults    INTEGER NOT NULL,
  updated_by_user_id  INTEGER REFERENCES users(id),
  updated_at          TEXT NOT NULL
);
