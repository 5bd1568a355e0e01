import { describe, expect, it } from 'vitest';
import type { WipeView } from '../../src/domain/wipes/grid.js';
import { apiQuery, headerText, lotUrl, rangeText, readViewState } from '../../web/src/pages/wipes-view.js';

const row = (id: string, fields: Partial<WipeView>): WipeView => ({
  id,
  job_id: `job-${id}`,
  vendor: null,
  model: null,
  serial: null,
  capacity_gb: null,
  capacity_bytes: null,
  media_type: null,
  method: null,
  passes_completed: null,
  source: { kind: 'none' },
  started_at: null,
  completed_at: null,
  duration_seconds: null,
  status: 'completed',
  status_label: 'Pass',
  status_tone: 'pass',
  technician: null,
  customer: null,
  lot_reference: null,
  certificate: { kind: 'not_issued', reason: 'No reason was recorded', detail: null },
  health_grade: null,
  health_reasons: [],
  ...fields,
});

const rows = [
  row('a', { model: 'WDC WD20', capacity_gb: 2000, completed_at: '2026-11-22T13:00:00Z', source: { kind: 'hotswap' } }),
  row('b', { model: 'ST1000', capacity_gb: 1000, completed_at: '2026-11-22T11:00:00Z', status: 'failed', status_label: 'Fail', media_type: 'HDD', duration_seconds: 90 }),
  row('c', { model: 'SAMSUNG', capacity_gb: 512, completed_at: null, media_type: 'SSD', serial: 'S4DY', duration_seconds: 750, certificate: { kind: 'issued', id: 'cert_x', number: 'CW-000007' } }),
];
const state = (query: string) => readViewState(new URLSearchParams(query));

describe('wipes grid view state (in the URL; the cloud filters, issue 31 item 1)', () => {
  it('reads the view from the URL, dropping what no filter takes, and opens links made with status labels', () => {
    expect(state('')).toEqual({ q: '', status: '', media: '', source: '', method: '', from: '', to: '', customer: '', lot: '', sort: 'completed_desc', page: 1 });
    expect(state('status=Fail').status).toBe('failed');
    expect(state('status=Pass').status).toBe('completed');
    expect(state('status=cancelled').status).toBe('cancelled');
    expect(state('status=bogus&media=floppy&source=moon&sort=bogus&page=-2')).toMatchObject({ status: '', media: '', source: '', sort: 'completed_desc', page: 1 });
    expect(state('media=SSD&source=hotswap&method=ATA%20Secure%20Erase&page=3')).toMatchObject({ media: 'SSD', source: 'hotswap', method: 'ATA Secure Erase', page: 3 });
  });

  it('asks the cloud for the filters, sort and page, with the viewer’s days as instants', () => {
    expect(apiQuery(state(''))).toBe('');
    expect(apiQuery(state('q=%20wd-wcc%20&status=Fail&sort=model_asc&page=2&customer=Contoso'))).toBe('q=wd-wcc&status=failed&customer=Contoso&sort=model_asc&page=2');
    expect(apiQuery(state('page=2'), { page: false })).toBe('');
    const query = new URLSearchParams(apiQuery(state('from=2026-03-01&to=2026-03-31')));
    // The start of the first day and the last millisecond of the last, in this process's zone.
    expect(query.get('from')).toBe(new Date(2026, 2, 1).toISOString());
    expect(query.get('to')).toBe(new Date(new Date(2026, 3, 1).getTime() - 1).toISOString());
  });

  it('says in the header how many wipes of the whole history match, and how they are sorted', () => {
    expect(headerText(state(''), 236)).toBe('236 drive wipes · newest first');
    expect(headerText(state('status=Pass&sort=duration_desc'), 40_000)).toBe('40000 wipes match · sorted by duration');
    expect(headerText(state('q=x'), 1)).toBe('1 wipe matches · newest first');
    expect(rangeText({ page: 2, page_size: 100, count: 236, rows: new Array(100) })).toBe('Showing 101–200 of 236');
    expect(rangeText({ page: 1, page_size: 100, count: 0, rows: [] })).toBe('Showing 0 of 0');
  });

  it('asks for a lot\u2019s certificates in the grid\u2019s order', () => {
    expect(lotUrl([rows[2]!, rows[0]!], 'zip')).toBe('/app/api/wipes/certificates?format=zip&ids=c,a');
    expect(lotUrl([rows[1]!], 'pdf')).toBe('/app/api/wipes/certificates?format=pdf&ids=b');
  });

});
