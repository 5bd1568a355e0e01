-- Issue 11: signing secrets rotate with a rollover window. Until previous_secret_expires_at the
-- previous secret signs every delivery too (a second `sha256=` in the signature header), so a
-- receiver can switch secrets without dropping a delivery.
ALTER TABLE webhook_subscriptions ADD COLUMN previous_signing_secret TEXT CHECK (previous_signing_secret IS NULL OR length(previous_signing_secret) = 64);
ALTER TABLE webhook_subscriptions ADD COLUMN previous_secret_expires_at TEXT;

-- The worker prunes terminal ledger rows by age.
CREATE INDEX webhook_deliveries_terminal ON webhook_deliveries(updated_at) WHERE status <> 'pending';

-- One attempt in flight per subscription: the claim looks up each subscription's oldest pending
-- delivery and whether one of its deliveries is leased, without walking its whole queue.
CREATE INDEX webhook_deliveries_pending_queue ON webhook_deliveries(subscription_id, event_id, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries(subscription_id, lease_until) WHERE status = 'pending' AND lease_until IS NOT NULL;
