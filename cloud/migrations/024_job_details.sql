-- Issue 31 item 6: job details typed or scanned at the kiosk (customer, lot / job reference,
-- asset tag), sent through the device route POST /api/job_details and copied onto each wipe
-- result of that boot's record. NULL on a wipe row: none given, the token's customer and lot
-- stay its default (readers use COALESCE(w.customer, t.customer)).
ALTER TABLE wipe_results ADD COLUMN customer TEXT;
ALTER TABLE wipe_results ADD COLUMN lot_reference TEXT;
ALTER TABLE wipe_results ADD COLUMN asset_tag TEXT;
-- The technician's asset tag on the asset, beside the DMI one (assets.asset_tag), which every
-- boot report rewrites.
ALTER TABLE assets ADD COLUMN job_asset_tag TEXT;
-- Whether the kiosk may name a customer or lot the account does not have yet (free entry).
-- 1 by default: a floor that never listed its lots can still type them.
ALTER TABLE accounts ADD COLUMN job_details_free_entry INTEGER NOT NULL DEFAULT 1;
CREATE INDEX wipe_results_account_customer ON wipe_results(account_id, customer);
CREATE INDEX wipe_results_account_lot ON wipe_results(account_id, lot_reference);
