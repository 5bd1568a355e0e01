-- Issue 28 (16): one subscription may take several events (all six in one, instead of six
-- subscriptions). `event_type` stays the subscription's first event, so the spec's field, the
-- (account, event type, url) uniqueness and every single-event path keep working; the further
-- events are a comma-separated list of wire names here. '' (every existing row): none.
ALTER TABLE webhook_subscriptions ADD COLUMN more_event_types TEXT NOT NULL DEFAULT '';
