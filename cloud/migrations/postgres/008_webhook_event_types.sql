-- The SQLite migration 015_webhook_event_types on PostgreSQL: a subscription's further events, as
-- a comma-separated list of wire names beside its first (`event_type`). '': none.
ALTER TABLE webhook_subscriptions ADD COLUMN more_event_types TEXT NOT NULL DEFAULT '';
