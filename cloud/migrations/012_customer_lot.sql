-- Issue 23 (2): an optional customer and lot / job reference per device token (admin CLI
-- `mint-device-token --customer C --lot L`). The notes body is closed by the spec, so the kiosk
-- cannot send them; the token carries them onto the machine it reports (assets), the wipes grid,
-- the CSV and both PDFs. NULL: none set.
ALTER TABLE license_tokens ADD COLUMN customer TEXT;
ALTER TABLE license_tokens ADD COLUMN lot_reference TEXT;
ALTER TABLE assets ADD COLUMN customer TEXT;
ALTER TABLE assets ADD COLUMN lot_reference TEXT;
