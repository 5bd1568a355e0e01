import { describe, expect, it } from 'vitest';
import { sourceText, toCsv } from './csv.js';
import type { WipeView } from './grid.js';

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
  asset_tag: null,
  certificate: { kind: 'not_issued', reason: 'No reason was recorded', detail: null },
  health_grade: null,
  health_reasons: [],
  ...fields,
});

const rows = [row('a', { model: 'WDC WD20', capacity_gb: 2000, completed_at: '2026-11-22T13:00:00Z', source: { kind: 'hotswap' } })];

describe('wipes CSV (the grid as a file, streamed by the cloud: issue 31 item 2)', () => {
  it('shows and exports a hotswap wipe with its bay', () => {
    const bay = row('h', { source: { kind: 'hotswap', bay: 'Bay 3', chassis: 'Front cage' } });
    expect(sourceText(bay)).toBe('Hotswap · Bay 3');
    expect(sourceText(rows[0]!)).toBe('Hotswap');
    expect(toCsv([bay]).trim().split('\r\n')[1]).toBe('h,,,,,,,Hotswap · Bay 3,,Pass,,,,,,Not issued,,,,No reason was recorded,,,,');
  });

  it('exports exactly the given rows as CSV, quoting and defusing formulas', () => {
    const csv = toCsv([row('x', { model: '=HYPERLINK("evil")', serial: 'a,b', capacity_gb: 512 })]);
    const [header, line] = csv.trim().split('\r\n');
    expect(header).toBe(
      'Wipe ID,Vendor,Model,Serial,Capacity (GB),Media Type,Method,Source,Duration (s),Status,Technician,Customer,Lot / Job Reference,Started,Completed,Certificate,Asset ID,health_grade,health_reasons,' +
        'Not Issued Reason,uncertified_reason,capacity_bytes,Capacity,Asset Tag',
    );
    expect(line).toBe(`x,,"'=HYPERLINK(""evil"")","a,b",512,,,,,Pass,,,,,,Not issued,,,,No reason was recorded,,512000000000,512 GB,`);
  });

  it('exports a matched machine as the grid shows it, model · serial, with its asset id in the Asset ID column', () => {
    const csv = toCsv([row('m', { source: { kind: 'asset', asset_id: 'asset_7Qx', label: 'Latitude 7490 · B5QVN32' } })]);
    const [header, line] = csv.trim().split('\r\n');
    const source = header!.split(',').indexOf('Source');
    expect(line!.split(',')[source]).toBe('Latitude 7490 · B5QVN32');
    expect(line!.split(',')[header!.split(',').indexOf('Asset ID')]).toBe('asset_7Qx');
  });

  it('exports the asset tag typed or scanned at the kiosk as the last column (issue 31 item 6)', () => {
    const lines = toCsv([row('t1', { asset_tag: 'AT-004211' })]).trim().split('\r\n');
    expect(lines[0]!.split(',').at(-1)).toBe('Asset Tag');
    expect(lines[1]!.split(',').at(-1)).toBe('AT-004211');
  });

  it('exports the customer and lot / job reference columns', () => {
    const lotRow = row('n1', { customer: 'Northwind Schools', lot_reference: 'LOT-42' });
    expect(toCsv([lotRow]).trim().split('\r\n')[1]).toBe('n1,,,,,,,,,Pass,,Northwind Schools,LOT-42,,,Not issued,,,,No reason was recorded,,,,');
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
});
