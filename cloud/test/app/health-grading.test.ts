import { DEFAULT_HEALTH_GRADING, type WireHealthRule } from '@erasure/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCloud, type Cloud } from '../helpers.js';
import { adminAndTechnician, type Browser } from '../web-helpers.js';

// Issue 30 item 6: the account's own health grade rule table and SMART self-test switch, set by
// its admins in the web app, checked before it is stored (clear 400s), and handed to the
// account's devices with the erasure policy, to no other account's.
const URL = '/app/api/health-grading';
/** The default table with power-on hours moved: B from 30,000 h, C from 60,000 h. */
const lenient: WireHealthRule[] = DEFAULT_HEALTH_GRADING.rules.map((r) => (r.metric === 'power_on_hours' ? { ...r, at_least: r.grade === 'C' ? 60_000 : 30_000 } : r));
const save = { rules: lenient, smart_self_test: true };

describe('the health grade rule table of an account', () => {
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

  it('is the documented default until an admin saves one, and a device then gets no table (it grades by the default)', async () => {
    const read = await admin.get(URL);
    expect(read.json.health_grading).toEqual({ ...DEFAULT_HEALTH_GRADING, source: 'default' });
    // The page's form comes with it: every metric in words.
    expect(read.json.form.metrics).toContainEqual({ metric: 'reallocated_sectors', kind: 'count', words: 'reallocated sectors (ATA 5)' });
    const granted = await devicePolicy();
    expect(granted.status).toBe(200);
    expect(granted.json).not.toHaveProperty('health_grading');
  });

  it('is saved by an admin, read back, and travels with the erasure policy to the account’s devices only', async () => {
    const saved = await admin.send('PUT', URL, save);
    expect(saved).toMatchObject({ status: 200, json: { health_grading: { ...save, source: 'account' } } });
    expect((await admin.get(URL)).json).toEqual(saved.json);
    expect(await devicePolicy()).toMatchObject({ status: 200, json: { health_grading: save } });
    const other = await cloud.account('Other Refurb');
    const theirs = await devicePolicy((await cloud.token(other.id)).jti, other.publicId);
    expect(theirs.status).toBe(200);
    expect(theirs.json).not.toHaveProperty('health_grading');
  });

  it('"Reset to default" removes the account’s table: the default again, and no self-test', async () => {
    await admin.send('PUT', URL, save);
    const reset = await admin.send('DELETE', URL);
    expect(reset).toMatchObject({ status: 200, json: { health_grading: { ...DEFAULT_HEALTH_GRADING, source: 'default' } } });
    expect((await devicePolicy()).json).not.toHaveProperty('health_grading');
  });

  it('is admins’ only: a technician can neither read nor change it (403), and nothing is written', async () => {
    expect((await technician.get(URL)).status).toBe(403);
    expect((await technician.send('PUT', URL, save)).status).toBe(403);
    expect((await technician.send('DELETE', URL)).status).toBe(403);
    expect((await devicePolicy()).json).not.toHaveProperty('health_grading');
  });

  const withRule = (metric: string, grade: string, change: Record<string, unknown>) => ({ rules: lenient.map((r) => (r.metric === metric && r.grade === grade ? { ...r, ...change } : r)), smart_self_test: false });

  it.each([
    ['grades out of order (a C threshold under the B one)', withRule('power_on_hours', 'C', { at_least: 20_000 }), /power-on hours: the C threshold must be higher than the B threshold/],
    ['a slow-zone F threshold above its C one', { rules: [{ metric: 'slowest_region_percent', grade: 'C', at_most: 30 }, { metric: 'slowest_region_percent', grade: 'F', at_most: 40 }], smart_self_test: false }, /the F threshold must be lower than the C threshold/],
    ['a percentage out of range', withRule('percentage_used', 'F', { at_least: 300 }), /endurance used \(%\)\): the threshold must be a whole number from 1 to 255, not 300/],
    ['a negative count', withRule('reallocated_sectors', 'F', { at_least: -1 }), /from 1 to .*, not -1/],
    ['a fraction', withRule('crc_errors', 'B', { at_least: 1.5 }), /whole number/],
    ['a threshold that is not a number', withRule('crc_errors', 'B', { at_least: '5' }), /at_least must be a number/],
    ['an unknown metric', { rules: [{ metric: 'temperature', grade: 'C', at_least: 60 }], smart_self_test: false }, /unknown metric temperature/],
    ['a grade A rule', { rules: [{ metric: 'crc_errors', grade: 'A', at_least: 1 }], smart_self_test: false }, /grade must be B, C or F/],
    ['no self-test answer', { rules: lenient }, /smart_self_test must be true or false/],
    ['rules that are not a list', { rules: 'strict', smart_self_test: false }, /rules must be a list/],
    ['a body that is not an object', 'strict', /send \{"rules"/],
  ])('refuses %s with a clear 400 and keeps the stored table', async (_what, body, message) => {
    await admin.send('PUT', URL, save);
    const refused = await admin.send('PUT', URL, body);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(message);
    expect((await devicePolicy()).json).toMatchObject({ health_grading: save });
  });
});
