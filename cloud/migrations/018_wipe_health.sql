-- Issue 30 item 6: a drive's health grade for resale, sent beside the spec fields of its wipe
-- result by agents that grade health (absent from older agents: both stay NULL). `health_grade`
-- (A, B, C, F) is its own column so the grid and exports read and sort it without parsing;
-- `health_json` is the wire's bounded health object (reasons, SMART before/after, speed profile).
ALTER TABLE wipe_results ADD COLUMN health_grade TEXT CHECK (health_grade IN ('A', 'B', 'C', 'F'));
ALTER TABLE wipe_results ADD COLUMN health_json TEXT;
