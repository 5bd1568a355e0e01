-- The SQLite migration 011_customer_lot on PostgreSQL: an optional customer and lot / job
-- reference per device token, carried onto the machines it reports. NULL: none set.
ALTER TABLE license_tokens ADD COLUMN customer TEXT;
ALTER TABLE license_tokens ADD COLUMN lot_reference TEXT;
ALTER TABLE assets ADD COLUMN customer TEXT;
ALTER TABLE assets ADD COLUMN lot_reference TEXT;
