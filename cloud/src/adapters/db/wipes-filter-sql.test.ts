import { describe, expect, it } from 'vitest';
import { filterSql, hasTrigram } from './wipes-filter-sql.js';

const COLUMNS = { certificates: true, customerLot: true, jobDetails: true, search: true };

describe('the wipes search term and its trigrams', () => {
  it('has a trigram from three characters on, counted as characters, not UTF-16 units', () => {
    expect(hasTrigram('ab')).toBe(false);
    expect(hasTrigram('abc')).toBe(true);
    expect(hasTrigram('Mü')).toBe(false);
    // Two characters of four UTF-16 units: no trigram.
    expect(hasTrigram('💾💾')).toBe(false);
    expect(hasTrigram('a💾b')).toBe(true);
  });

  it('looks a term of three characters up by index, and keeps the LIKE beside it', () => {
    const sqlite = filterSql('sqlite', { q: 'sung' }, COLUMNS, []);
    expect(sqlite.where).toContain('wipe_search MATCH @q_phrase');
    expect(sqlite.where).toContain("w.drive_model LIKE @q ESCAPE '\\'");
    expect(sqlite.params).toMatchObject({ q: '%sung%', q_phrase: '"sung"' });
    const postgres = filterSql('postgres', { q: 'sung' }, COLUMNS, []);
    expect(postgres.where).toContain('wipe_search_text(drive_model, drive_serial, asset_tag, customer, lot_reference) ILIKE @q');
    expect(postgres.where).toContain("w.drive_model ILIKE @q ESCAPE '\\'");
  });

  it('names the wipes of the tokens that match by token id, and no token branch when none does', () => {
    expect(filterSql('postgres', { q: 'acme' }, COLUMNS, [3, 7]).where).toContain('AND token_id IN (3, 7)');
    expect(filterSql('postgres', { q: 'acme' }, COLUMNS, []).where).not.toContain('AND token_id IN (');
  });

  it('takes a double quote in the term literally in the FTS5 phrase', () => {
    expect(filterSql('sqlite', { q: '2.5" HDD' }, COLUMNS, []).params.q_phrase).toBe('"2.5"" HDD"');
  });

  it('scans for a term under three characters, or where the store has no index', () => {
    expect(filterSql('sqlite', { q: '70' }, COLUMNS, []).where).not.toContain('wipe_search');
    expect(filterSql('postgres', { q: '70' }, COLUMNS, []).where).not.toContain('wipe_search_text');
    expect(filterSql('sqlite', { q: 'sung' }, { ...COLUMNS, search: false }, []).where).not.toContain('wipe_search');
    // Without the matching tokens the index path cannot name their wipes: the scan.
    expect(filterSql('sqlite', { q: 'sung' }, COLUMNS).where).not.toContain('wipe_search');
  });
});
