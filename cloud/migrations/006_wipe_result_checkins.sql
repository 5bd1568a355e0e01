-- Issue 11: a wipe result is certified only when its job_id was issued by a check-in of the
-- same account (check-in is the metered step). Anything else is kept, never certified, and
-- says why here; NULL for a certified result.
ALTER TABLE wipe_results ADD COLUMN uncertified_reason TEXT;

-- Results stored before this rule keep their certificates; name why the others were not.
UPDATE wipe_results
   SET uncertified_reason = CASE
         WHEN COALESCE(wipe_status, 'completed') <> 'completed' THEN 'wipe_status ' || wipe_status
         ELSE 'validation ' || validation
       END
 WHERE certifiable = 0;
