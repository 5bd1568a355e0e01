-- Issue 29 (2): who chooses the erasure method. An account's erasure policy (default method,
-- verification level, methods its technicians may choose), set by its admins in the web app, and
-- a device token's own policy (a customer's contract) that overrides it. Both are stored as the
-- JSON of shared/src/erasure-methods.ts `ErasurePolicy`, checked by the cloud before they are
-- written (domain/erasure-policy/policy.ts). No account row: the built-in default policy.
-- license_tokens.erasure_policy NULL: the token follows its account's policy.
CREATE TABLE erasure_policies (
  account_id          INTEGER PRIMARY KEY REFERENCES accounts(id),
  policy              TEXT NOT NULL,
  updated_by_user_id  INTEGER REFERENCES users(id),
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL
);
ALTER TABLE license_tokens ADD COLUMN erasure_policy TEXT;
