-- The wipes grid's text search `q` by index (issue 31 item 1): a part of the model, serial, asset
-- tag, customer, lot or certificate number, any case, found through trigrams instead of a LIKE
-- over every wipe of the account. FTS5's trigram tokenizer indexes every run of three
-- characters, folded to lower case (Unicode, wider than LIKE's ASCII folding), so a MATCH of the
-- term as a phrase finds a superset of the wipes whose fields contain it; the grid keeps its
-- LIKE conditions beside it (adapters/db/wipes-filter-sql.ts), so the answer is LIKE's exactly.
-- A term under three characters has no trigram: the grid falls back to the scan for it.
-- The row's rowid is the wipe's id; the token's technician, customer and lot are matched on the
-- account's few tokens, not here. Kept in step with wipe_results and certificates by the
-- triggers below, filled for the existing wipes here.
CREATE VIRTUAL TABLE wipe_search USING fts5(
  drive_model, drive_serial, asset_tag, customer, lot_reference, certificate_number,
  tokenize = 'trigram'
);

INSERT INTO wipe_search (rowid, drive_model, drive_serial, asset_tag, customer, lot_reference, certificate_number)
SELECT w.id, w.drive_model, w.drive_serial, w.asset_tag, w.customer, w.lot_reference, c.certificate_number
  FROM wipe_results w LEFT JOIN certificates c ON c.wipe_result_id = w.id;

CREATE TRIGGER wipe_search_insert AFTER INSERT ON wipe_results BEGIN
  INSERT INTO wipe_search (rowid, drive_model, drive_serial, asset_tag, customer, lot_reference, certificate_number)
  VALUES (new.id, new.drive_model, new.drive_serial, new.asset_tag, new.customer, new.lot_reference,
          (SELECT certificate_number FROM certificates WHERE wipe_result_id = new.id));
END;

CREATE TRIGGER wipe_search_update AFTER UPDATE OF id, drive_model, drive_serial, asset_tag, customer, lot_reference ON wipe_results BEGIN
  DELETE FROM wipe_search WHERE rowid = old.id;
  INSERT INTO wipe_search (rowid, drive_model, drive_serial, asset_tag, customer, lot_reference, certificate_number)
  VALUES (new.id, new.drive_model, new.drive_serial, new.asset_tag, new.customer, new.lot_reference,
          (SELECT certificate_number FROM certificates WHERE wipe_result_id = new.id));
END;

CREATE TRIGGER wipe_search_delete AFTER DELETE ON wipe_results BEGIN
  DELETE FROM wipe_search WHERE rowid = old.id;
END;

-- A certificate is issued after its wipe is stored; its number is the wipe's to find.
CREATE TRIGGER wipe_search_certificate_insert AFTER INSERT ON certificates BEGIN
  UPDATE wipe_search SET certificate_number = new.certificate_number WHERE rowid = new.wipe_result_id;
END;

CREATE TRIGGER wipe_search_certificate_update AFTER UPDATE OF wipe_result_id, certificate_number ON certificates BEGIN
  UPDATE wipe_search SET certificate_number = NULL WHERE rowid = old.wipe_result_id;
  UPDATE wipe_search SET certificate_number = new.certificate_number WHERE rowid = new.wipe_result_id;
END;

CREATE TRIGGER wipe_search_certificate_delete AFTER DELETE ON certificates BEGIN
  UPDATE wipe_search SET certificate_number = NULL WHERE rowid = old.wipe_result_id;
END;
