import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCloud, type Cloud } from '../helpers.js';
import { addUser, reportWipe, signIn, type Browser } from '../web-helpers.js';

/**
 * The wipes CSV from the cloud (issue 31 item 2): every row the grid's filters match, across
 * pages, in the grid's order, the columns as they were; above the operator's cap the answer
 * says so instead of a file that stops short.
 */
describe('/app/api/wipes.csv', () => {
  let cloud: Cloud;
  let admin: Browser;
  const CAP = 120;

  beforeEach(async () => {
    cloud = await startCloud({ deps: { wipesCsvMaxRows: CAP } });
    const account = await cloud.account('Acme Refurb');
    const contoso = (await cloud.token(account.id, { userEmail: 'cy@acme.test', customer: 'Contoso', lot: 'LOT-7' })).jti;
    const plain = (await cloud.token(account.id, { userEmail: 'dee@acme.test' })).jti;
    // Over one page of the grid: the CSV is not the page in view.
    for (let i = 0; i < 110; i++) {
      cloud.clock.advance(1000);
      await reportWipe(cloud, i % 2 === 0 ? contoso : plain, {
        job_id: `job-${i}-0`,
        drive_serial: `SER-${String(i).padStart(4, '0')}`,
        drive_model: i % 3 === 0 ? '=cmd|calc' : 'SAMSUNG MZVLB512HAJQ',
        completed_at: `2026-03-01T${String(10 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`,
        wipe_status: i % 5 === 0 ? 'failed' : 'completed',
      });
    }
    await reportWipe(cloud, (await cloud.token((await cloud.account('Other')).id, { customer: 'Contoso' })).jti, { job_id: 'theirs-0' });
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    admin = await signIn(cloud, 'admin@acme.test');
  }, 120_000);
  afterEach(() => cloud.close());

  const lines = (text: string) => text.split('\r\n').slice(0, -1);

  it('exports every matching row of the history in the grid’s order, one line each after the header', async () => {
    const res = await admin.get('/app/api/wipes.csv?customer=Contoso&status=completed&sort=completed_asc');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="wipes-2026-11-22.csv"');
    const [header, ...rows] = lines(res.text);
    // The columns exactly as the browser's export had them.
    expect(header).toBe('Wipe ID,Vendor,Model,Serial,Capacity (GB),Media Type,Method,Source,Duration (s),Status,Technician,Customer,Lot / Job Reference,Started,Completed,Certificate,Asset ID,health_grade,health_reasons,Not Issued Reason,uncertified_reason,capacity_bytes,Capacity,Asset Tag');
    const expected = [...Array(110).keys()].filter((i) => i % 2 === 0 && i % 5 !== 0).map((i) => `SER-${String(i).padStart(4, '0')}`);
    expect(rows.map((line) => line.split(',')[3])).toEqual(expected);
    expect(res.headers['x-wipes-count']).toBe(String(expected.length));
    // Formulas are still defused and the customer still shows.
    expect(rows.find((line) => line.split(',')[3] === 'SER-0006')).toContain(",'=cmd|calc,SER-0006,");
    expect(rows.every((line) => line.includes(',Contoso,LOT-7,'))).toBe(true);
  });

  it('exports all 110 rows, past the grid’s page of 100, and only the account’s', async () => {
    const [header, ...rows] = lines((await admin.get('/app/api/wipes.csv')).text);
    expect(header).toMatch(/^Wipe ID,/);
    expect(rows).toHaveLength(110);
    expect(new Set(rows.map((line) => line.split(',')[3]))).toEqual(new Set([...Array(110).keys()].map((i) => `SER-${String(i).padStart(4, '0')}`)));
  });

  it('exports exactly as many rows as the cap, and refuses one row more, saying how many match and how many one CSV holds', async () => {
    const account = (await cloud.db.one<{ id: number }>("SELECT id FROM accounts WHERE name = 'Acme Refurb'"))!.id;
    const jti = (await cloud.token(account)).jti;
    for (let i = 0; i < 10; i++) await reportWipe(cloud, jti, { job_id: `more-${i}-0` });
    expect(lines((await admin.get('/app/api/wipes.csv')).text)).toHaveLength(CAP + 1);
    await reportWipe(cloud, jti, { job_id: 'one-more-0' });
    const over = await admin.get('/app/api/wipes.csv');
    expect(over.status).toBe(422);
    expect(over.json).toEqual({
      error: '121 wipes match, and one CSV holds at most 120. Narrow the filters (a date range, a customer) and export each part.',
      count: 121,
      max_rows: CAP,
    });
    // The grid tells the page the cap, and a narrower export goes through.
    expect((await admin.get('/app/api/wipes')).json.csv_max_rows).toBe(CAP);
    expect((await admin.get('/app/api/wipes.csv?status=failed')).status).toBe(200);
  });

  it('refuses a malformed filter with 400, as the grid does', async () => {
    expect(await admin.get('/app/api/wipes.csv?media=floppy')).toMatchObject({ status: 400, json: { error: 'media must be one of SSD, HDD, unknown' } });
  });
});
