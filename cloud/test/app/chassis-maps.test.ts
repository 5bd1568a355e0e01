import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint, startCloud, type Cloud } from '../helpers.js';
import { addUser, signIn } from '../web-helpers.js';

const SAVE = '/internal/chassis_maps';
const LOOKUP = '/internal/chassis_maps/lookup';
const UUID = '6b2a1f00-1111-4222-8333-444455556666';
const SERIAL = 'CZJ8420ABC';

describe('chassis maps (spec 2, 4.2)', () => {
  let cloud: Cloud;
  let jti: string;
  beforeEach(async () => {
    cloud = await startCloud();
    jti = (await cloud.token((await cloud.account()).id, { product: 'hotswap' })).jti;
  });
  afterEach(() => cloud.close());

  const save = (bays: unknown[], token = jti, extra: Record<string, unknown> = {}) =>
    cloud.post(SAVE, {
      jti: token,
      record_id: 'CW-20261122-120000',
      engine_version: '1.4.0',
      fingerprint: fingerprint(UUID, SERIAL),
      map: { name: 'Front cage', bays, ...extra },
    });

  it('upserts the chassis asset first, then stores the map: 201 {ok, chassis_map_id, asset_id}', async () => {
    const res = await save([{ lane: 'ata1', label: 'Bay 1', connector: { port: 1 } }, { lane: 'ata2', label: 'Bay 2' }]);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      ok: true,
      chassis_map_id: expect.stringMatching(/^cmap_/),
      asset_id: expect.stringMatching(/^asset_/),
    });
    const asset = await cloud.db.one('SELECT serial_number, hardware_uid FROM assets WHERE public_id = @id', { id: res.json.asset_id });
    expect(asset).toEqual({ serial_number: SERIAL, hardware_uid: `${UUID}/${SERIAL}` });
  });

  it('drops unusable bays and keeps connector only when it is an object', async () => {
    await save([{ lane: 'ata1', label: 'Bay 1', connector: 'sas' }, { lane: '', label: 'Bay 2' }, { label: 'Bay 3' }]);
    const res = await cloud.post(LOOKUP, { jti, system: { uuid: UUID, serial: SERIAL } });
    expect(res.json).toEqual({ found: true, map: { name: 'Front cage', bays: [{ lane: 'ata1', label: 'Bay 1' }] } });
  });

  it('answers 422 map has no usable bays', async () => {
    for (const bays of [[], [{ lane: ' ', label: 'x' }], [null, 3]]) {
      const res = await save(bays);
      expect(res.status).toBe(422);
      expect(res.json).toEqual({ error: 'map has no usable bays' });
    }
    expect((await cloud.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM assets'))!.n).toBe(0);
  });

  it('answers 422 missing record_id or fingerprint', async () => {
    const res = await cloud.post(SAVE, { jti, map: { name: 'x', bays: [{ lane: 'a', label: 'b' }] } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ error: 'missing record_id or fingerprint' });
  });

  it('replaces the map of the same chassis on a second save', async () => {
    const first = await save([{ lane: 'ata1', label: 'Bay 1' }]);
    const second = await save([{ lane: 'ata1', label: 'Left' }, { lane: 'ata2', label: 'Right' }]);
    expect(second.json.chassis_map_id).toBe(first.json.chassis_map_id);
    const res = await cloud.post(LOOKUP, { jti, system: { uuid: UUID, serial: SERIAL } });
    expect(res.json.map.bays).toHaveLength(2);
  });

  // Issue 32: the mapping wizard's site goes with the map, and comes back with it on the next boot.
  it('keeps the site the map was saved with, trimmed, and forgets it when a later save has none', async () => {
    await save([{ lane: 'ata1', label: 'Bay 1' }], jti, { site: '  Leeds floor 2 ' });
    const lookup = () => cloud.post(LOOKUP, { jti, system: { uuid: UUID, serial: SERIAL } });
    expect((await lookup()).json).toEqual({ found: true, map: { name: 'Front cage', site: 'Leeds floor 2', bays: [{ lane: 'ata1', label: 'Bay 1' }] } });
    await save([{ lane: 'ata1', label: 'Bay 1' }], jti, { site: ' ' });
    expect((await lookup()).json.map).not.toHaveProperty('site');
  });

  it('looks up always 200: found false for an unknown chassis or one without identity', async () => {
    for (const system of [{ uuid: UUID, serial: 'OTHER' }, {}, { uuid: '00000000-0000-0000-0000-000000000000' }]) {
      const res = await cloud.post(LOOKUP, { jti, system });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ found: false });
    }
  });

  it('scopes the lookup to the token’s account', async () => {
    await save([{ lane: 'ata1', label: 'Bay 1' }]);
    const stranger = await cloud.token((await cloud.account('Other')).id, { product: 'hotswap' });
    const res = await cloud.post(LOOKUP, { jti: stranger.jti, system: { uuid: UUID, serial: SERIAL } });
    expect(res.json).toEqual({ found: false });
  });
});

describe('the chassis asset in the web app shows its bay map (hotswap station)', () => {
  let cloud: Cloud;
  afterEach(() => cloud.close());

  it('returns the bays as the wizard labelled them with the asset, and none for an ordinary machine', async () => {
    cloud = await startCloud();
    const account = await cloud.account();
    const jti = (await cloud.token(account.id, { product: 'hotswap' })).jti;
    const bays = [
      { lane: 'pci-0000:00:03.0-scsi-0:0:0:0', label: 'Bay 1', connector: { transport: 'scsi' } },
      { lane: 'pci-0000:00:03.0-scsi-0:0:1:0', label: 'Bay 2', connector: { transport: 'scsi' } },
    ];
    const saved = await cloud.post(SAVE, { jti, record_id: 'CW-20261122-120000', engine_version: '1.4.0', fingerprint: fingerprint(UUID, SERIAL), map: { name: 'Front cage', bays } });
    await addUser(cloud, account.id, 'technician', 'tech@acme.test');
    const tech = await signIn(cloud, 'tech@acme.test');
    const detail = (await tech.get(`/app/api/assets/${saved.json.asset_id}`)).json;
    expect(detail.chassis_map).toEqual({ id: saved.json.chassis_map_id, name: 'Front cage', bays, updated_at: expect.any(String) });
    const plain = await cloud.post('/internal/assets', { jti, record_id: 'CW-20261122-120100', engine_version: '1.4.0', fingerprint: fingerprint('11111111-2222-4333-8444-555566667777', 'OTHER1') });
    expect((await tech.get(`/app/api/assets/${plain.json.asset_id}`)).json.chassis_map).toBeNull();
  });

  it('never shows another account\u2019s map', async () => {
    cloud = await startCloud();
    const owner = await cloud.account('Owner');
    const jti = (await cloud.token(owner.id, { product: 'hotswap' })).jti;
    const saved = await cloud.post(SAVE, { jti, record_id: 'CW-20261122-120000', engine_version: '1.4.0', fingerprint: fingerprint(UUID, SERIAL), map: { name: 'Front cage', bays: [{ lane: 'l1', label: 'Bay 1' }] } });
    const stranger = await cloud.account('Stranger');
    await addUser(cloud, stranger.id, 'admin', 'admin@stranger.test');
    const who = await signIn(cloud, 'admin@stranger.test');
    expect((await who.get(`/app/api/assets/${saved.json.asset_id}`)).status).toBe(404);
  });
});
