import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWipeHistory } from '../../../test/support/wipe-history.js';
import { startCloud, type Cloud } from '../helpers.js';
import { addUser, signIn, type Browser } from '../web-helpers.js';

/**
 * Issue 31 item 1 at the size of a real business: 100,000 wipes over a year in one account (and
 * a neighbour's), on both stores. A filter whose matches are spread over the whole history
 * returns exactly the rows a plain SQL statement over the same table finds.
 */
const COUNT = 100_000;

describe('the wipes grid over a history of 100,000 wipes', { timeout: 300_000 }, () => {
  let cloud: Cloud;
  let admin: Browser;
  let accountId: number;

  beforeAll(async () => {
    cloud = await startCloud();
    const account = await cloud.account('Acme Refurb');
    accountId = account.id;
    const tokens = [
      await cloud.token(account.id, { userEmail: 'ana@acme.test', customer: 'Northwind Schools', lot: 'LOT-42' }),
      await cloud.token(account.id, { userEmail: 'cy@acme.test', customer: 'Contoso', lot: 'LOT-7' }),
      await cloud.token(account.id, { userEmail: 'dee@acme.test' }),
    ];
    await seedWipeHistory(cloud.db, { accountId: account.id, tokenIds: tokens.map((t) => t.id), count: COUNT });
    // A neighbour with the same serials and customer: none of theirs may show.
    const other = await cloud.account('Other');
    const theirs = await cloud.token(other.id, { customer: 'Contoso' });
    await seedWipeHistory(cloud.db, { accountId: other.id, tokenIds: [theirs.id], count: 2_000, publicIdPrefix: 'wr_theirs' });
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    admin = await signIn(cloud, 'admin@acme.test');
  }, 300_000);
  afterAll(() => cloud?.close());

  const get = async (query: string) => {
    const res = await admin.get(`/app/api/wipes?${query}`);
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.text}`);
    return res.json as { rows: { id: string }[]; count: number; pages: number };
  };

  it('counts the whole history', async () => {
    expect((await get('')).count).toBe(COUNT);
  });

  it('a search spread over the year finds exactly the rows SQL finds, on every page', async () => {
    // "777" is in serials SN-000777 … SN-097770 and in certificate numbers, months apart.
    const expected = await cloud.db.many<{ public_id: string }>(
      `SELECT w.public_id FROM wipe_results w JOIN license_tokens t ON t.id = w.token_id
         LEFT JOIN certificates c ON c.wipe_result_id = w.id
        WHERE w.account_id = @account
          AND (w.drive_serial LIKE '%777%' OR w.drive_model LIKE '%777%' OR t.user_email LIKE '%777%'
               OR c.certificate_number LIKE '%777%' OR t.customer LIKE '%777%' OR t.lot_reference LIKE '%777%')
        ORDER BY w.created_at DESC, w.id DESC`,
      { account: accountId },
    );
    expect(expected.length).toBeGreaterThan(100);
    const first = await get('q=777&sort=completed_desc');
    expect(first.count).toBe(expected.length);
    const found = [...first.rows];
    for (let page = 2; page <= first.pages; page++) found.push(...(await get(`q=777&page=${page}`)).rows);
    // The seed's instants rise with its reporting order, so newest completed is newest reported here.
    const withCompletion = new Set(
      (await cloud.db.many<{ public_id: string }>("SELECT public_id FROM wipe_results WHERE account_id = @account AND completed_at IS NOT NULL", { account: accountId })).map((r) => r.public_id),
    );
    const ordered = [...expected.filter((r) => withCompletion.has(r.public_id)), ...expected.filter((r) => !withCompletion.has(r.public_id))];
    expect(found.map((r) => r.id)).toEqual(ordered.map((r) => r.public_id));
  });

  it('failed wipes of one customer in a quarter: exactly the rows and the count SQL gives', async () => {
    const direct = await cloud.db.many<{ public_id: string }>(
      `SELECT w.public_id FROM wipe_results w JOIN license_tokens t ON t.id = w.token_id
        WHERE w.account_id = @account AND w.wipe_status = 'failed' AND t.customer = 'Contoso' AND w.completed_at IS NOT NULL
          AND w.created_at >= '2025-04-01' AND w.created_at < '2025-07-01'
        ORDER BY w.created_at DESC, w.id DESC`,
      { account: accountId },
    );
    expect(direct.length).toBeGreaterThan(100);
    // The seed stamps each row a second after its completion, so these days select the same rows.
    const query = 'status=failed&customer=Contoso&from=2025-04-01&to=2025-06-30';
    const first = await get(query);
    expect(first.count).toBe(direct.length);
    const found = [...first.rows];
    for (let page = 2; page <= first.pages; page++) found.push(...(await get(`${query}&page=${page}`)).rows);
    expect(found.map((r) => r.id)).toEqual(direct.map((r) => r.public_id));
  });

  it('exports all 100,000 wipes as a CSV of 100,001 lines, streamed from the store, only the account’s', async () => {
    // The grid keeps answering while the export reads (on SQLite it reads on a connection of its own).
    const [res, meanwhile] = await Promise.all([admin.get('/app/api/wipes.csv'), get('status=failed')]);
    expect(res.status).toBe(200);
    expect(meanwhile.count).toBeGreaterThan(0);
    const lines = res.text.split('\r\n').slice(0, -1);
    expect(lines).toHaveLength(COUNT + 1);
    const ids = lines.slice(1).map((line) => line.slice(0, line.indexOf(',')));
    const stored = await cloud.db.many<{ public_id: string }>('SELECT public_id FROM wipe_results WHERE account_id = @account', { account: accountId });
    expect(new Set(ids)).toEqual(new Set(stored.map((r) => r.public_id)));
  });

  it('a filtered CSV holds exactly the rows SQL finds, in the grid’s order', async () => {
    const direct = await cloud.db.many<{ public_id: string }>(
      `SELECT w.public_id FROM wipe_results w JOIN license_tokens t ON t.id = w.token_id
        WHERE w.account_id = @account AND w.wipe_method = 'ATA Secure Erase' AND t.customer = 'Northwind Schools'
        ORDER BY w.drive_capacity_gb DESC, w.created_at DESC, w.id DESC`,
      { account: accountId },
    );
    expect(direct.length).toBeGreaterThan(5_000);
    const res = await admin.get(`/app/api/wipes.csv?method=${encodeURIComponent('ATA Secure Erase')}&customer=Northwind%20Schools&sort=capacity_desc`);
    const lines = res.text.split('\r\n').slice(1, -1);
    expect(lines.map((line) => line.slice(0, line.indexOf(',')))).toEqual(direct.map((r) => r.public_id));
  });
});
