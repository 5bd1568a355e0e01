-- A display name for people: the spec's technician and operator are a user's name, not an email.
ALTER TABLE users ADD COLUMN name TEXT;
