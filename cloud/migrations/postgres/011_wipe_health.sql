-- The SQLite migration 018_wipe_health on PostgreSQL: a drive's health grade for resale (issue 30
-- item 6), NULL for results of agents that do not grade health. `health_json` is the wire's
-- bounded health object, stored as sent.
ALTER TABLE wipe_results ADD COLUMN health_grade TEXT CHECK (health_grade IN ('A', 'B', 'C', 'F'));
ALTER TABLE wipe_results ADD COLUMN health_json TEXT;
