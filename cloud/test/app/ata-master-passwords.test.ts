import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCloud, type Cloud } from '../helpers.js';
import { adminAndTechnician, type Browser } from '../web-helpers.js';

// Issue 30 item 1: the account's ATA master passwords, set by its admins in the web app,
// write-only (a count and labels come back, never a password), and handed to the account's
// devices with the erasure policy, to no other account's.
const FLEET = 'Fleet-Master-2019';
const LEASE = 'lease co master';

describe('ATA master passwords of an account', () => {
  let cloud: Cloud;
  let account: Awaited<ReturnType<Cloud['account']>>;
  let admin: Browser;
  let technician: Browser;
  let jti: string;

  beforeEach(async () => {
    cloud = await startCloud();
    account = await cloud.account('Acme Refurb');
    jti = (await cloud.token(account.id)).jti;
    ({ admin, technician } = await adminAndTechnician(cloud, account.id));
  });
  afterEach(() => cloud.close());

  const devicePolicy = (token = jti, accountId = account.publicId) => cloud.post('/internal/tokens/erasure_policy', { jti: token, account_id: accountId });
  const save = { passwords: [{ password: FLEET, label: 'Dell fleet' }, { password: LEASE }], factory_defaults: true };

  it('are none until an admin sets some, and a device then gets no master passwords', async () => {
    expect((await admin.get('/app/api/ata-master-passwords')).json).toEqual({ ata_master_passwords: { count: 0, labels: [], factory_defaults: false } });
    const granted = await devicePolicy();
    expect(granted.status).toBe(200);
    expect(granted.json).not.toHaveProperty('ata_master_passwords');
  });

  it('are saved by an admin and read back as a count and labels only, never a password', async () => {
    const saved = await admin.send('PUT', '/app/api/ata-master-passwords', save);
    expect(saved.status).toBe(200);
    expect(saved.json).toEqual({ ata_master_passwords: { count: 2, labels: ['Dell fleet', null], factory_defaults: true } });
    const read = await admin.get('/app/api/ata-master-passwords');
    expect(read.json).toEqual(saved.json);
    expect(JSON.stringify(read.json)).not.toContain(FLEET);
    expect(JSON.stringify(read.json)).not.toContain(LEASE);
  });

  it('travel with the erasure policy to a device of the account, and not to another account’s device', async () => {
    await admin.send('PUT', '/app/api/ata-master-passwords', save);
    expect(await devicePolicy()).toMatchObject({ status: 200, json: { source: 'default', ata_master_passwords: { passwords: [FLEET, LEASE], factory_defaults: true } } });
    const other = await cloud.account('Other Refurb');
    const otherJti = (await cloud.token(other.id)).jti;
    const theirs = await devicePolicy(otherJti, other.publicId);
    expect(theirs.status).toBe(200);
    expect(theirs.json).not.toHaveProperty('ata_master_passwords');
  });

  it('keep the saved passwords when only the factory-defaults toggle changes, and "remove all" removes them', async () => {
    await admin.send('PUT', '/app/api/ata-master-passwords', save);
    const toggled = await admin.send('PUT', '/app/api/ata-master-passwords', { factory_defaults: false });
    expect(toggled.json).toEqual({ ata_master_passwords: { count: 2, labels: ['Dell fleet', null], factory_defaults: false } });
    expect((await devicePolicy()).json).toMatchObject({ ata_master_passwords: { passwords: [FLEET, LEASE], factory_defaults: false } });
    const removed = await admin.send('DELETE', '/app/api/ata-master-passwords');
    expect(removed).toMatchObject({ status: 200, json: { ata_master_passwords: { count: 0, labels: [], factory_defaults: false } } });
    expect((await devicePolicy()).json).not.toHaveProperty('ata_master_passwords');
  });

  it('are admins’ only: a technician can neither read the count nor change them (403), and nothing is written', async () => {
    expect((await technician.get('/app/api/ata-master-passwords')).status).toBe(403);
    expect((await technician.send('PUT', '/app/api/ata-master-passwords', save)).status).toBe(403);
    expect((await technician.send('DELETE', '/app/api/ata-master-passwords')).status).toBe(403);
    expect((await devicePolicy()).json).not.toHaveProperty('ata_master_passwords');
  });

  it.each([
    ['too many passwords', { passwords: Array.from({ length: 17 }, (_, i) => ({ password: `pw-${i}` })), factory_defaults: false }, /at most 16/],
    ['a password longer than 32 characters', { passwords: [{ password: 'x'.repeat(33) }], factory_defaults: false }, /master password 1 is longer than 32/],
    ['an empty password', { passwords: [{ password: FLEET }, { password: '' }], factory_defaults: false }, /master password 2 is empty/],
    ['a password with a non-ASCII character', { passwords: [{ password: 'päss' }], factory_defaults: false }, /printable ASCII/],
    ['no factory-defaults answer', { passwords: [{ password: FLEET }] }, /factory_defaults must be true or false/],
    ['a list that is not a list', { passwords: FLEET, factory_defaults: false }, /passwords must be a list/],
    ['a body that is not an object', 'secret', /send \{"passwords"/],
  ])('refuse %s with a clear 400 and keep the stored ones', async (_what, body, message) => {
    await admin.send('PUT', '/app/api/ata-master-passwords', save);
    const refused = await admin.send('PUT', '/app/api/ata-master-passwords', body);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(message);
    expect(JSON.stringify(refused.json)).not.toContain(FLEET);
    expect((await devicePolicy()).json).toMatchObject({ ata_master_passwords: { passwords: [FLEET, LEASE], factory_defaults: true } });
  });
});
