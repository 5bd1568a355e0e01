import { describe, expect, it } from 'vitest';
import type { WipeView } from '../../src/domain/wipes/grid.js';
import { distinctValues, headerText, lotUrl, readViewState, sourceText, toCsv, visibleRows } from '../../web/src/pages/wipes-view.js';

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
const ids = (list: WipeView[]) => list.map((r) => r.id);
const view = (query: string) => visibleRows(rows, readViewState(new URLSearchParams(query)));

describe('wipes grid view state (client side, spec 4.5)', () => {
  it('sorts by every listed option, missing values last, ties in server order', () => {
    expect(ids(view(''))).toEqual(['a', 'b', 'c']);
    expect(ids(view('sort=completed_asc'))).toEqual(['b', 'a', 'c']);
    expect(ids(view('sort=model_asc'))).toEqual(['c', 'b', 'a']);
    expect(ids(view('sort=model_desc'))).toEqual(['a', 'b', 'c']);
    expect(ids(view('sort=capacity_desc'))).toEqual(['a', 'b', 'c']);
    expect(ids(view('sort=duration_desc'))).toEqual(['c', 'b', 'a']);
    expect(ids(view('sort=status_asc'))).toEqual(['b', 'a', 'c']);
    expect(ids(view('sort=bogus'))).toEqual(['a', 'b', 'c']);
  });

  it('filters by status, media type and source, and searches every shown column', () => {
    expect(ids(view('status=Fail'))).toEqual(['b']);
    expect(ids(view('media=SSD'))).toEqual(['c']);
    expect(ids(view('media=unknown'))).toEqual(['a']);
    expect(ids(view('source=hotswap'))).toEqual(['a']);
    expect(ids(view('q=cw-000007'))).toEqual(['c']);
    expect(ids(view('q=s4dy&media=HDD'))).toEqual([]);
  });

  it('shows, searches and exports a hotswap wipe with its bay', () => {
    const bay = row('h', { source: { kind: 'hotswap', bay: 'Bay 3', chassis: 'Front cage' } });
    expect(sourceText(bay)).toBe('Hotswap · Bay 3');
    expect(sourceText(rows[0]!)).toBe('Hotswap');
    expect(ids(visibleRows([...rows, bay], readViewState(new URLSearchParams('q=bay 3'))))).toEqual(['h']);
    expect(toCsv([bay]).trim().split('\r\n')[1]).toBe('h,,,,,,,Hotswap · Bay 3,,Pass,,,,,,Not issued,,,,No reason was recorded,,,');
  });

  it('exports exactly the given rows as CSV, quoting and defusing formulas', () => {
    const csv = toCsv([row('x', { model: '=HYPERLINK("evil")', serial: 'a,b', capacity_gb: 512 })]);
    const [header, line] = csv.trim().split('\r\n');
    expect(header).toBe(
      'Wipe ID,Vendor,Model,Serial,Capacity (GB),Media Type,Method,Source,Duration (s),Status,Technician,Customer,Lot / Job Reference,Started,Completed,Certificate,Asset ID,health_grade,health_reasons,' +
        'Not Issued Reason,uncertified_reason,capacity_bytes,Capacity',
    );
    expect(line).toBe(`x,,"'=HYPERLINK(""evil"")","a,b",512,,,,,Pass,,,,,,Not issued,,,,No reason was recorded,,512000000000,512 GB`);
  });

  it('appends why a certificate was not issued, the capacity in bytes, and "< 1 GB" for a drive under 1 GB (issue 31 item 4)', () => {
    const small = row('s', {
      capacity_gb: 0,
      capacity_bytes: 67_108_864,
      status: 'failed',
      status_label: 'Fail',
      certificate: { kind: 'not_issued', reason: 'The erasure failed', detail: 'wipe_status failed' },
    });
    const unsized = row('u', { capacity_gb: 0, certificate: { kind: 'issued', id: 'cert_u', number: 'CW-000009' } });
    const [header, ...lines] = toCsv([small, unsized]).trim().split('\r\n');
    const columns = header!.split(',');
    // The existing columns keep their places; the new ones come last.
    expect(columns.slice(0, 19)).toEqual(
      'Wipe ID,Vendor,Model,Serial,Capacity (GB),Media Type,Method,Source,Duration (s),Status,Technician,Customer,Lot / Job Reference,Started,Completed,Certificate,Asset ID,health_grade,health_reasons'.split(','),
    );
    const cell = (line: string, name: string) => line.split(',')[columns.indexOf(name)];
    expect(cell(lines[0]!, 'Not Issued Reason')).toBe('The erasure failed');
    expect(cell(lines[0]!, 'uncertified_reason')).toBe('wipe_status failed');
    expect(cell(lines[0]!, 'capacity_bytes')).toBe('67108864');
    expect(cell(lines[0]!, 'Capacity')).toBe('< 1 GB');
    expect(cell(lines[0]!, 'Capacity (GB)')).toBe('0');
    // Issued: no reason. Under 1 GB with no exact size known: no byte count rather than 0.
    expect(cell(lines[1]!, 'Not Issued Reason')).toBe('');
    expect(cell(lines[1]!, 'capacity_bytes')).toBe('');
    expect(cell(lines[1]!, 'Capacity')).toBe('< 1 GB');
  });

  it('exports a matched machine as the grid shows it, model · serial, with its asset id in the Asset ID column', () => {
    const csv = toCsv([row('m', { source: { kind: 'asset', asset_id: 'asset_7Qx', label: 'Latitude 7490 · B5QVN32' } })]);
    const [header, line] = csv.trim().split('\r\n');
    const source = header!.split(',').indexOf('Source');
    expect(line!.split(',')[source]).toBe('Latitude 7490 · B5QVN32');
    expect(line!.split(',')[header!.split(',').indexOf('Asset ID')]).toBe('asset_7Qx');
  });

  it('filters by the completed date range, both days included, in the viewer\u2019s time zone', () => {
    const at = (iso: string) => new Date(iso);
    const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const a = day(at('2026-11-22T13:00:00Z'));
    const b = day(at('2026-11-22T11:00:00Z'));
    expect(ids(view(`from=${a}&to=${a}`))).toEqual(rows.filter((r) => r.completed_at && day(at(r.completed_at)) === a).map((r) => r.id));
    expect(ids(view(`from=${b}`))).toEqual(['a', 'b']);
    // A wipe with no completion date is outside any range; a malformed day filters nothing.
    expect(ids(view('to=2099-01-01'))).toEqual(['a', 'b']);
    expect(ids(view('from=2099-01-01'))).toEqual([]);
    expect(ids(view('from=yesterday'))).toEqual(['a', 'b', 'c']);
    expect(readViewState(new URLSearchParams('from=2026-13-45')).from).toBe('');
  });

  it('says in the header how many rows the filters leave and how they are sorted', () => {
    const one = { count: 8, page: 1, pages: 1, onPage: 8 };
    expect(headerText(readViewState(new URLSearchParams('')), 8, one)).toBe('8 drive wipes · newest first');
    expect(headerText(readViewState(new URLSearchParams('status=Pass&sort=duration_desc')), 4, one)).toBe('4 of 8 drive wipes · sorted by duration');
    expect(headerText(readViewState(new URLSearchParams('from=2026-11-01')), 1, { ...one, count: 1, onPage: 1 })).toBe('1 of 1 drive wipe · newest first');
    expect(headerText(readViewState(new URLSearchParams('q=x')), 3, { count: 250, page: 2, pages: 3, onPage: 100 })).toBe('3 of 100 on page 2 of 3 (250 drive wipes in all) · newest first');
  });

  it('asks for a lot\u2019s certificates in the grid\u2019s order', () => {
    expect(lotUrl([rows[2]!, rows[0]!], 'zip')).toBe('/app/api/wipes/certificates?format=zip&ids=c,a');
    expect(lotUrl([rows[1]!], 'pdf')).toBe('/app/api/wipes/certificates?format=pdf&ids=b');
  });

  it('filters by customer and by lot / job reference, searches them and exports both columns', () => {
    const lotRows = [
      ...rows,
      row('n1', { customer: 'Northwind Schools', lot_reference: 'LOT-42' }),
      row('n2', { customer: 'Northwind Schools', lot_reference: 'LOT-43' }),
      row('c1', { customer: 'Contoso', lot_reference: 'LOT-42' }),
    ];
    const pick = (query: string) => ids(visibleRows(lotRows, readViewState(new URLSearchParams(query))));
    expect(pick('customer=Northwind Schools')).toEqual(['n1', 'n2']);
    expect(pick('lot=LOT-42')).toEqual(['n1', 'c1']);
    expect(pick('customer=Northwind Schools&lot=LOT-43')).toEqual(['n2']);
    expect(pick('q=contoso')).toEqual(['c1']);
    expect(distinctValues(lotRows, 'customer')).toEqual(['Contoso', 'Northwind Schools']);
    expect(toCsv([lotRows[3]!]).trim().split('\r\n')[1]).toBe('n1,,,,,,,,,Pass,,Northwind Schools,LOT-42,,,Not issued,,,,No reason was recorded,,,');
  });
});
