import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint, startCloud, type Cloud } from '../helpers.js';
import { addUser, signIn } from '../web-helpers.js';

const TESTS = '/internal/assets/tests';

/**
 * Hardware tests across boots (issue 28, item 14): a later boot's snapshot replaces that boot's
 * own only, so the asset keeps "keyboard passed, display failed" when the next boot only detected
 * Wi-Fi, and the web app shows the latest result of each test with when it was taken.
 */
describe('hardware tests kept per boot', () => {
  let cloud: Cloud;
  let jti: string;
  let accountId: number;
  beforeEach(async () => {
    cloud = await startCloud();
    accountId = (await cloud.account()).id;
    jti = (await cloud.token(accountId, { userEmail: 'ana@example.com' })).jti;
    await addUser(cloud, accountId, 'admin', 'admin@example.com');
  });
  afterEach(() => cloud.close());

  const boot = async (recordId: string) => (await cloud.post('/internal/assets', { jti, record_id: recordId, engine_version: '1.4.0', fingerprint: fingerprint() })).json.asset_id as string;

  it('a second boot’s snapshot does not replace the first boot’s results', async () => {
    const assetId = await boot('CW-20261122-120000');
    const firstAt = cloud.clock.now().toISOString();
    expect((await cloud.post(TESTS, { jti, record_id: 'CW-20261122-120000', tests: { keyboard: { status: 'passed' }, display: { status: 'failed', detail: 'dead pixel row' } } })).status).toBe(200);
    cloud.clock.advance(24 * 3600_000);
    expect(await boot('CW-20261123-120000')).toBe(assetId);
    const secondAt = cloud.clock.now().toISOString();
    expect((await cloud.post(TESTS, { jti, record_id: 'CW-20261123-120000', tests: { keyboard: { status: 'not_started' }, wifi_adapter: { status: 'detected', detail: 'Intel AX201' } } })).status).toBe(200);

    const web = await signIn(cloud, 'admin@example.com');
    const detail = (await web.get(`/app/api/assets/${assetId}`)).json;
    expect(detail.tests_latest).toEqual({
      keyboard: { status: 'passed', taken_at: firstAt, record_id: 'CW-20261122-120000' },
      display: { status: 'failed', detail: 'dead pixel row', taken_at: firstAt, record_id: 'CW-20261122-120000' },
      wifi_adapter: { status: 'detected', detail: 'Intel AX201', taken_at: secondAt, record_id: 'CW-20261123-120000' },
    });
    expect(detail.tests_history.map((run: { record_id: string }) => run.record_id)).toEqual(['CW-20261123-120000', 'CW-20261122-120000']);
    // The public shape is unchanged: `test_results` is the latest submitted snapshot (spec 2).
    expect(detail.test_results).toEqual({ keyboard: { status: 'not_started' }, wifi_adapter: { status: 'detected', detail: 'Intel AX201' } });
  });

  it('a new snapshot of the same boot still replaces that boot’s earlier one', async () => {
    const assetId = await boot('CW-20261122-120000');
    await cloud.post(TESTS, { jti, record_id: 'CW-20261122-120000', tests: { webcam: { status: 'failed', detail: 'no image' } } });
    cloud.clock.advance(60_000);
    await cloud.post(TESTS, { jti, record_id: 'CW-20261122-120000', tests: { webcam: { status: 'passed' } } });
    const detail = (await (await signIn(cloud, 'admin@example.com')).get(`/app/api/assets/${assetId}`)).json;
    expect(detail.tests_history).toHaveLength(1);
    expect(detail.tests_latest.webcam).toMatchObject({ status: 'passed' });
  });
});
