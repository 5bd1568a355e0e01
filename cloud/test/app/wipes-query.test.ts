import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WipeView } from '../../src/domain/wipes/grid.js';
import { fingerprint, startCloud, type Cloud } from '../helpers.js';
import { addUser, reportAsset, reportWipe, signIn, type Browser } from '../web-helpers.js';

/**
 * The wipes grid on the server (issue 31 item 1): every filter, sort and count is the cloud's,
 * over the whole history, on both stores. The rows are reported through the internal API, as
 * devices report them; each answer is checked against what the rows' own cells say, over all pages.
 */
describe('/app/api/wipes: search, filters, sort and counts over the whole history', () => {
  let cloud: Cloud;
  let admin: Browser;
  /** Reporting order of each wipe id: ties in any sort go newest report first. */
  const reported = new Map<string, number>();
  const TOTAL = 236;
  const MODELS = ['SAMSUNG MZVLB512HAJQ', 'ST1000DM003-1CH162', 'WDC WD20EZRZ-00Z5HB0', 'TOSHIBA MQ01ABD100', 'intel SSDSC2KB480G8', null];
  const METHODS = ['NIST 800-88 R2 Purge', 'NIST 800-88 R2 Clear', 'ATA Secure Erase'];
  const ZONES = ['Z', '+01:00', '-0500', '+05:30'];

  beforeAll(async () => {
    cloud = await startCloud();
    const account = await cloud.account('Acme Refurb');
    const other = await cloud.account('Other');
    const northwind = (await cloud.token(account.id, { userEmail: 'ana@acme.test', customer: 'Northwind Schools', lot: 'LOT-42' })).jti;
    const contoso = (await cloud.token(account.id, { userEmail: 'cy@acme.test', customer: 'Contoso', lot: 'LOT-7' })).jti;
    const plain = (await cloud.token(account.id, { userEmail: 'dee@acme.test' })).jti;
    const hotswap = (await cloud.token(account.id, { userEmail: 'bo@acme.test', product: 'hotswap' })).jti;
    // A machine whose drives some wipes match: one SSD, one HDD.
    await reportAsset(cloud, plain, 'CW-20260101-090000', fingerprint(undefined, undefined, {
      storage: [
        { model: 'SAMSUNG MZVLB512HAJQ', serial: 'SER-0003', size_bytes: 512_110_190_592, media_type: 'SSD' },
        { model: 'ST1000DM003-1CH162', serial: 'SER-0004', size_bytes: 1_000_204_886_016, media_type: 'rotational' },
      ],
    }));
    await reportWipe(cloud, (await cloud.token(other.id, { customer: 'Northwind Schools' })).jti, { job_id: 'theirs-0', drive_serial: 'SER-0003' });
    const jtis = [northwind, contoso, plain, hotswap];
    for (let i = 0; i < TOTAL; i++) {
      cloud.clock.advance(1000);
      const day = 1 + (i % 28);
      const hour = (i * 7) % 24;
      const zone = ZONES[i % ZONES.length]!;
      const pad = (n: number) => String(n).padStart(2, '0');
      const started = `2026-03-${pad(day)}T${pad(hour)}:00:00${zone}`;
      const fields: Record<string, unknown> = {
        job_id: `job-${i}-0`,
        drive_model: MODELS[i % MODELS.length],
        drive_serial: `SER-${String(i % 60).padStart(4, '0')}`,
        drive_capacity_gb: [512, 1000, 2000, 0][i % 4],
        wipe_method: METHODS[i % METHODS.length],
        started_at: started,
        // Every 17th wipe has no completion time; the others took (i % 9) × 10 minutes.
        completed_at: i % 17 === 0 ? undefined : `2026-03-${pad(day)}T${pad(hour)}:${pad((i % 6) * 10)}:00${zone}`,
        wipe_status: i % 11 === 0 ? 'failed' : i % 13 === 0 ? 'cancelled' : 'completed',
      };
      if (i % 23 === 0) fields.tool_components = `erasure-agent 0.1.0; bay=Bay ${i % 4}; chassis=Front cage`;
      if (fields.drive_model === null) delete fields.drive_model;
      const id = await reportWipe(cloud, jtis[i % jtis.length]!, fields);
      reported.set(id, i);
    }
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    admin = await signIn(cloud, 'admin@acme.test');
  }, 240_000);
  afterAll(() => cloud.close());

  const get = async (query: string) => {
    const res = await admin.get(`/app/api/wipes?${query}`);
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.text}`);
    return res.json as { rows: WipeView[]; page: number; pages: number; count: number; facets: Record<string, string[]> };
  };
  /** Every row the query matches, page after page, and the count the first page gave. */
  const all = async (query: string) => {
    const first = await get(query);
    const rows = [...first.rows];
    for (let page = 2; page <= first.pages; page++) rows.push(...(await get(`${query}&page=${page}`)).rows);
    return { rows, count: first.count };
  };
  const ids = (rows: readonly WipeView[]) => rows.map((row) => row.id);

  // What the grid shows, as the reference the SQL must agree with.
  const instant = (iso: string | null) => (iso === null ? null : Date.parse(iso));
  const newestReportFirst = (a: WipeView, b: WipeView) => reported.get(b.id)! - reported.get(a.id)!;
  const nullsLast = <T,>(get: (row: WipeView) => T | null, compare: (x: T, y: T) => number) => (a: WipeView, b: WipeView) => {
    const x = get(a);
    const y = get(b);
    if (x === null || y === null) return x === y ? newestReportFirst(a, b) : x === null ? 1 : -1;
    return compare(x, y) || newestReportFirst(a, b);
  };
  const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const REFERENCE_ORDERS: Record<string, (a: WipeView, b: WipeView) => number> = {
    completed_desc: nullsLast((r) => instant(r.completed_at), (x, y) => y - x),
    completed_asc: nullsLast((r) => instant(r.completed_at), (x, y) => x - y),
    model_asc: nullsLast((r) => r.model?.toLowerCase() ?? null, byText),
    model_desc: nullsLast((r) => r.model?.toLowerCase() ?? null, (x, y) => byText(y, x)),
    capacity_desc: nullsLast((r) => r.capacity_gb, (x, y) => y - x),
    duration_desc: nullsLast((r) => r.duration_seconds, (x, y) => y - x),
    status_asc: nullsLast((r) => r.status_label.toLowerCase(), byText),
  };

  it('answers a page of 100 with the count of every wipe in the history, only the account’s', async () => {
    const first = await get('');
    expect(first).toMatchObject({ page: 1, pages: 3, count: TOTAL });
    expect(first.rows).toHaveLength(100);
    expect((await get('page=3')).rows).toHaveLength(TOTAL - 200);
    expect((await get('page=9')).rows).toEqual([]);
    expect(first.facets).toEqual({
      customers: ['Contoso', 'Northwind Schools'],
      lots: ['LOT-42', 'LOT-7'],
      methods: [...METHODS].sort(),
    });
  });

  it('sorts the whole history by every order the grid offers, missing values last, ties newest report first', async () => {
    const { rows: everything } = await all('');
    expect(everything).toHaveLength(TOTAL);
    for (const [sort, compare] of Object.entries(REFERENCE_ORDERS)) {
      const sorted = await all(`sort=${sort}`);
      expect(ids(sorted.rows), sort).toEqual(ids([...everything].sort(compare)));
    }
  });

  it('filters by status, media, source, method, customer and lot exactly as the rows’ cells say, across every page', async () => {
    const { rows: everything } = await all('');
    const cases: [string, (row: WipeView) => boolean][] = [
      ['status=failed', (r) => r.status_label === 'Fail'],
      ['status=cancelled', (r) => r.status_label === 'Cancelled'],
      ['status=completed', (r) => r.status_label === 'Pass'],
      ['media=SSD', (r) => r.media_type === 'SSD'],
      ['media=HDD', (r) => r.media_type === 'HDD'],
      ['media=unknown', (r) => r.media_type === null],
      ['source=hotswap', (r) => r.source.kind === 'hotswap'],
      ['source=asset', (r) => r.source.kind === 'asset'],
      ['source=none', (r) => r.source.kind === 'none'],
      [`method=${encodeURIComponent(METHODS[2]!)}`, (r) => r.method === METHODS[2]],
      ['customer=Northwind%20Schools', (r) => r.customer === 'Northwind Schools'],
      ['lot=LOT-7', (r) => r.lot_reference === 'LOT-7'],
      ['customer=Contoso&status=failed&media=unknown', (r) => r.customer === 'Contoso' && r.status === 'failed' && r.media_type === null],
    ];
    for (const [query, keep] of cases) {
      const expected = everything.filter(keep);
      // Every case must select something and leave something out, or it proves nothing.
      expect(expected.length, query).toBeGreaterThan(0);
      expect(expected.length, query).toBeLessThan(TOTAL);
      const found = await all(query);
      expect(found.count, query).toBe(expected.length);
      expect(ids(found.rows), query).toEqual(ids(expected));
    }
  });

  it('filters by the completed date range in instants, whatever zone each wipe was reported in', async () => {
    const { rows: everything } = await all('');
    const from = Date.parse('2026-03-10T00:00:00Z');
    const end = Date.parse('2026-03-13T00:00:00Z');
    const inDays = (r: WipeView) => r.completed_at !== null && Date.parse(r.completed_at) >= from && Date.parse(r.completed_at) < end;
    const days = await all('from=2026-03-10&to=2026-03-12');
    expect(ids(days.rows)).toEqual(ids(everything.filter(inDays)));
    expect(days.count).toBeGreaterThan(0);
    // Instants as the page sends them for the viewer's own days: here a day in UTC+05:30.
    const local = await all(`from=${encodeURIComponent('2026-03-10T00:00:00+05:30')}&to=${encodeURIComponent('2026-03-10T23:59:59.999+05:30')}`);
    const start = Date.parse('2026-03-10T00:00:00+05:30');
    const stop = Date.parse('2026-03-10T23:59:59.999+05:30');
    expect(ids(local.rows)).toEqual(ids(everything.filter((r) => r.completed_at !== null && Date.parse(r.completed_at) >= start && Date.parse(r.completed_at) <= stop)));
    expect(local.count).toBeGreaterThan(0);
    expect((await get('from=2026-03-20&to=2026-03-10')).count).toBe(0);
  });

  it('searches model, serial, technician, certificate number, customer and lot, in any case, over the whole history', async () => {
    const { rows: everything } = await all('');
    const serial = await all('q=ser-0059');
    expect(ids(serial.rows)).toEqual(ids(everything.filter((r) => r.serial === 'SER-0059')));
    expect(serial.count).toBeGreaterThan(1);
    expect((await all('q=CONTOSO')).count).toBe(everything.filter((r) => r.customer === 'Contoso').length);
    expect((await all('q=lot-4')).count).toBe(everything.filter((r) => r.lot_reference === 'LOT-42').length);
    expect((await all('q=dee@')).count).toBe(everything.filter((r) => r.technician === 'dee@acme.test').length);
    expect((await all('q=ssdsc2kb')).count).toBe(everything.filter((r) => r.model === 'intel SSDSC2KB480G8').length);
    // A certificate number, issued or not yet, finds its wipe.
    const number = (await cloud.db.one<{ certificate_number: string; public_id: string }>(
      `SELECT c.certificate_number, w.public_id FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id
        JOIN accounts a ON a.id = w.account_id WHERE a.name = 'Acme Refurb' ORDER BY c.id DESC LIMIT 1`,
    ))!;
    expect(ids((await all(`q=${number.certificate_number.toLowerCase()}`)).rows)).toContain(number.public_id);
    // LIKE's own wildcards are taken literally.
    expect((await all('q=%25')).count).toBe(0);
    expect((await all('q=_')).count).toBe(0);
  });

  it('refuses a malformed filter with 400 and the rule in words, never a 500', async () => {
    const cases: [string, string][] = [
      ['status=passed', 'status must be one of completed, failed, cancelled'],
      ['media=floppy', 'media must be one of SSD, HDD, unknown'],
      ['source=elsewhere', 'source must be one of asset, hotswap, none'],
      ['sort=fastest', 'sort must be one of completed_desc, completed_asc, model_asc, model_desc, capacity_desc, duration_desc, status_asc'],
      ['from=yesterday', 'from must be a date (2026-03-01) or an ISO 8601 timestamp with a zone (2026-03-01T00:00:00Z)'],
      ['to=2026-02-30', 'to must be a date (2026-03-31) or an ISO 8601 timestamp with a zone (2026-03-31T23:59:59Z)'],
      ['from=2026-03-01T10:00:00', 'from must be a date (2026-03-01) or an ISO 8601 timestamp with a zone (2026-03-01T00:00:00Z)'],
      ['page=0', 'page must be a positive integer'],
      [`q=${'x'.repeat(201)}`, 'q must be at most 200 characters'],
      ['status=failed&status=completed', 'status must be given once'],
    ];
    for (const [query, error] of cases) {
      const res = await admin.get(`/app/api/wipes?${query}`);
      expect([res.status, res.json], query).toEqual([400, { error }]);
    }
    // Empty values filter nothing, as a form with every field unset sends them.
    expect((await get('q=&status=&media=&source=&from=&to=&customer=&lot=&method=&sort=')).count).toBe(TOTAL);
  });
});
