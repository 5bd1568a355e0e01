-- The SQLite migration 032_chassis_map_site on PostgreSQL.
-- Issue 32, the floor view: a station's chassis map may say where the station stands (the
-- mapping wizard's naming step). The floor board groups the station under it, before its token's site.
ALTER TABLE chassis_maps ADD COLUMN site TEXT;
