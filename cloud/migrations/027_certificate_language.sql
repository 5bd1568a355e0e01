-- Issue 31 item 7 part B: the language certificates and reports are drawn in (en, de, fr, es).
-- Per account (an admin setting, default English) and per device token (a mint option, NULL:
-- the account's). The certificate row keeps the language its job first ran with, so a retried
-- job or a re-render draws the same page; NULL on rows from before: English. The signed record
-- (certificate.json) never carries it: it is the same in every language.
ALTER TABLE accounts ADD COLUMN certificate_language TEXT NOT NULL DEFAULT 'en' CHECK (certificate_language IN ('en', 'de', 'fr', 'es'));
ALTER TABLE license_tokens ADD COLUMN certificate_language TEXT CHECK (certificate_language IS NULL OR certificate_language IN ('en', 'de', 'fr', 'es'));
ALTER TABLE certificates ADD COLUMN language TEXT CHECK (language IS NULL OR language IN ('en', 'de', 'fr', 'es'));
