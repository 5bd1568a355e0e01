-- Issue 30 item 6: an account's own health grade rule table for resale, and whether its devices
-- run the SMART short self-test before each erase. Set by the account's admins in the web app and
-- sent to its devices with the erasure policy (ErasurePolicyGranted.health_grading). `rules`: JSON
-- of shared/src/contracts/health-rules.ts WireHealthRule[], checked by the cloud before it is
-- written (checkHealthRules). No row: the documented default table, no self-test.
CREATE TABLE health_gradings (
  account_id          INTEGER PRIMARY KEY REFERENCES accounts(id),
  rules               TEXT NOT NULL,
  smart_self_test     INTEGER NOT NULL CHECK (smart_self_test IN (0, 1)),
  updated_by_user_id  INTEGER REFERENCES users(id),
  updated_at          TEXT NOT NULL
);
