-- The SQLite migration 027_certificate_language on PostgreSQL (issue 31 item 7 part B): the
-- language of certificates per account (default English) and per device token (NULL: the
-- account's), and the language each certificate was drawn in (NULL on rows from before: English).
ALTER TABLE accounts ADD COLUMN certificate_language TEXT NOT NULL DEFAULT 'en' CHECK (certificate_language IN ('en', 'de', 'fr', 'es'));
ALTER TABLE license_tokens ADD COLUMN certificate_language TEXT CHECK (certificate_language IS NULL OR certificate_language IN ('en', 'de', 'fr', 'es'));
ALTER TABLE certificates ADD COLUMN language TEXT CHECK (language IS NULL OR language IN ('en', 'de', 'fr', 'es'));
