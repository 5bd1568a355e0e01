import { describe, expect, it } from 'vitest';
import { certificateCell, durationSeconds, healthCells, sourceCell, statusBadge } from './grid.js';
import { driveVendor, mediaKind } from './vendor.js';

describe('wipes grid derivations (spec 4.5)', () => {
  it.each([
    ['SAMSUNG MZVLB512HAJQ-000L7', 'Samsung'],
    ['MZ7LN256HAJQ-000L7', 'Samsung'],
    ['WDC WD10EZEX-08WN4A0', 'Western Digital'],
    ['WD10EZEX-00BN5A0', 'Western Digital'],
    ['WD_BLACK SN850X 1000GB', 'Western Digital'],
    ['ST1000DM003-1CH162', 'Seagate'],
    ['TOSHIBA MQ01ABD100', 'Toshiba'],
    ['HGST HTS721010A9E630', 'HGST'],
    ['Micron 2200S NVMe 512GB', 'Micron'],
    ['MTFDDAK256TBN', 'Micron'],
    ['Crucial_CT500MX500SSD1', 'Crucial'],
    ['CT1000P1SSD8', 'Crucial'],
    ['INTEL SSDSC2KB480G8', 'Intel'],
    ['SSDPEKKW256G8', 'Intel'],
    ['KINGSTON SA400S37240G', 'Kingston'],
    ['SanDisk SD8SN8U-256G-1006', 'SanDisk'],
    ['SK hynix PC601 HFS256GD9TNG', 'SK hynix'],
    ['HFS512GD9TNG-62A0A', 'SK hynix'],
    ['LENOVO LENSE20256GMSP34MEAT2TA', 'Lenovo'],
    ['ATA ST500LM021-1KJ15', 'Seagate'],
    ['Mystery Disk', null],
    ['', null],
    [null, null],
  ])('reads the vendor of %s as %s', (model, vendor) => {
    expect(driveVendor(model)).toBe(vendor);
  });

  it('reads media type as SSD or HDD', () => {
    expect([mediaKind('SSD'), mediaKind('NVMe SSD'), mediaKind('nvme'), mediaKind('HDD'), mediaKind('rotational'), mediaKind(null), mediaKind('tape')]).toEqual([
      'SSD', 'SSD', 'SSD', 'HDD', 'HDD', null, null,
    ]);
  });

  it('shows completed as Pass, failed as Fail, other statuses titleized, absent as Pass', () => {
    expect(statusBadge('completed')).toEqual({ status: 'completed', label: 'Pass', tone: 'pass' });
    expect(statusBadge(null)).toEqual({ status: 'completed', label: 'Pass', tone: 'pass' });
    expect(statusBadge('failed')).toEqual({ status: 'failed', label: 'Fail', tone: 'fail' });
    expect(statusBadge('cancelled')).toEqual({ status: 'cancelled', label: 'Cancelled', tone: 'neutral' });
    expect(statusBadge('in_progress').label).toBe('In Progress');
  });

  it('computes duration from start and completion, or null', () => {
    expect(durationSeconds('2026-11-22T10:00:00Z', '2026-11-22T10:12:30Z')).toBe(750);
    expect(durationSeconds(null, '2026-11-22T10:12:30Z')).toBeNull();
    expect(durationSeconds('2026-11-22T10:12:30Z', '2026-11-22T10:00:00Z')).toBeNull();
    expect(durationSeconds('garbage', '2026-11-22T10:00:00Z')).toBeNull();
  });

  it('links an issued certificate, badges one in progress or failed, and mutes a non-certifiable wipe', () => {
    const base = { certifiable: 1, certificate_status: 'pending' as const, cert_public_id: 'cert_a', cert_number: 'CW-000001', cert_status: 'pending' };
    expect(certificateCell({ ...base, certificate_status: 'complete', cert_status: 'complete' })).toEqual({ kind: 'issued', id: 'cert_a', number: 'CW-000001' });
    expect(certificateCell(base)).toEqual({ kind: 'badge', label: 'Pending' });
    expect(certificateCell({ ...base, certificate_status: 'generating' })).toEqual({ kind: 'badge', label: 'Generating' });
    expect(certificateCell({ ...base, certificate_status: 'failed' })).toEqual({ kind: 'badge', label: 'Failed' });
    expect(certificateCell({ ...base, certificate_status: 'complete', cert_public_id: null, cert_number: null, cert_status: null })).toEqual({
      kind: 'badge',
      label: 'Complete',
    });
    expect(certificateCell({ ...base, certifiable: 0, certificate_status: null, uncertified_reason: 'wipe_status failed' })).toEqual({
      kind: 'not_issued',
      reason: 'The erasure failed',
      detail: 'wipe_status failed',
    });
  });

  it('shows a hotswap wipe as Hotswap even when its serial matches a machine (the chassis), then a match, then nothing', () => {
    const matched = { asset_public_id: 'asset_a', asset_model: 'Latitude 7490', asset_serial: 'B5' };
    const unmatched = { asset_public_id: null, asset_model: null, asset_serial: null };
    expect(sourceCell({ ...matched, product: 'hotswap', tool_components: null })).toEqual({ kind: 'hotswap' });
    expect(sourceCell({ ...matched, product: 'engine', tool_components: 'erasure-agent 0.1.0' })).toEqual({ kind: 'asset', asset_id: 'asset_a', label: 'Latitude 7490 · B5' });
    expect(sourceCell({ ...matched, asset_model: null, asset_serial: null, product: 'engine', tool_components: null })).toMatchObject({ label: 'asset_a' });
    expect(sourceCell({ ...unmatched, product: 'hotswap', tool_components: null })).toEqual({ kind: 'hotswap' });
    expect(sourceCell({ ...unmatched, product: 'engine', tool_components: null })).toEqual({ kind: 'none' });
  });

  it('names the bay and chassis map of a hotswap wipe, and counts a station wipe on an engine token as hotswap', () => {
    const matched = { asset_public_id: 'asset_chassis', asset_model: 'SC846', asset_serial: 'CH1' };
    const components = 'erasure-agent 0.1.0; bay=Bay 3; chassis=Front cage; hdparm --security-erase';
    expect(sourceCell({ ...matched, product: 'hotswap', tool_components: components })).toEqual({ kind: 'hotswap', bay: 'Bay 3', chassis: 'Front cage' });
    expect(sourceCell({ ...matched, product: 'engine', tool_components: 'erasure-agent 0.1.0; bay=Rear 1' })).toEqual({ kind: 'hotswap', bay: 'Rear 1' });
  });
});

describe('the Grade cell (issue 30 item 6)', () => {
  it('gives the stored grade and its reasons, and nothing for a drive that was not graded', () => {
    expect(healthCells({ health_grade: 'B', health_json: '{"grade":"B","reasons":["CRC errors"]}' })).toEqual({ health_grade: 'B', health_reasons: ['CRC errors'] });
    expect(healthCells({ health_grade: null, health_json: null })).toEqual({ health_grade: null, health_reasons: [] });
  });

  it('reads a damaged health object as no reasons rather than failing the grid', () => {
    expect(healthCells({ health_grade: 'F', health_json: '{not json' })).toEqual({ health_grade: 'F', health_reasons: [] });
    expect(healthCells({ health_grade: 'Z', health_json: '{"reasons":["x"]}' })).toEqual({ health_grade: null, health_reasons: [] });
  });
});
