-- The SQLite migration 031_floor_stalls on PostgreSQL.
-- Issue 32, stalls: each reported drive's last byte progress and since when it stands still
-- (JSON by device: bytes, stage, since, and the stall already announced), kept with the
-- machine's row; and the account's stall time, 10 minutes unless it sets its own.
ALTER TABLE floor_machines ADD COLUMN progress TEXT NOT NULL DEFAULT '{}';
ALTER TABLE accounts ADD COLUMN floor_stall_seconds INTEGER NOT NULL DEFAULT 600;

-- `drive_stalled`, a webhook event beyond the spec's six: subscriptions may name it.
ALTER TABLE webhook_subscriptions DROP CONSTRAINT webhook_subscriptions_event_type_check;
ALTER TABLE webhook_subscriptions ADD CONSTRAINT webhook_subscriptions_event_type_check
  CHECK (event_type IN ('wipe_session_ready', 'wipe_session_blocked', 'asset_reported',
                        'hardware_tests_completed', 'wipe_session_completed', 'certificate_generated', 'validation_rejected',
                        'drive_stalled'));
