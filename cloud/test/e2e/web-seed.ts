import type { RunningCloud } from './web-fixture.js';

/**
 * The browser test's data: an account with an admin and a technician, a staff user in another account, an audited
 * machine, and four wipes (certified with its certificate complete, failed, pending on a hotswap
 * station, cancelled).
 */
export async function seedGrid(cloud: RunningCloud) {
  const ids: Record<string, string> = {};
  const acme = await cloud.account('Acme Refurbishing');
  const ops = await cloud.account('Erasure Operations');
  await cloud.user(acme.id, 'admin', 'admin@acme.test');
  await cloud.user(ops.id, 'staff', 'ops@erasure.test');
  await cloud.user(acme.id, 'technician', 'tech@acme.test');
  // The engine token names a customer and lot (issue 23); the hotswap token names none.
  const engineJti = await cloud.token(acme.id, 'ana@acme.test', 'engine', { customer: 'Northwind Schools', lotReference: 'LOT-42' });
  const hotswapJti = await cloud.token(acme.id, 'bo@acme.test', 'hotswap');

  const asset = await cloud.internal('/internal/assets', {
    jti: engineJti,
    record_id: 'CW-20261122-100000',
    engine_version: '1.4.0',
    fingerprint: {
      system: { manufacturer: 'Dell Inc.', product: 'Latitude 7490', serial: 'B5QVN32', uuid: '4c4c4544-0042-3510-8051-b4c04f564e32' },
      firmware: { mode: 'UEFI', secure_boot: true },
      tpm: { version: '2.0' },
      cpu: { model: 'Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz', cores: 4, threads: 8 },
      memory: { total_bytes: 17_179_869_184 },
      storage: [
        {
          model: 'SAMSUNG MZVLB512HAJQ-000L7',
          serial: 'S4DYNX0M123456',
          size_bytes: 512_110_190_592,
          media_type: 'SSD',
          transport: 'NVMe',
          smart: { passed: true, power_on_hours: 4120, percentage_used: 3, temperature_c: 38, reallocated_sectors: 0 },
        },
      ],
      batteries: [{ health_pct: 81, model: 'DELL 4GVMP', cycle_count: 212 }],
      displays: [{ vendor: 'AUO', model: 'B140HAN', panel_serial: 'AUO-5F3D', width_px: 1920, height_px: 1080 }],
      gpus: [{ model: 'Intel UHD Graphics 620' }],
      wifi_adapters: [{ model: 'Intel Wireless 8265', driver: 'iwlwifi' }],
    },
  });
  await cloud.internal('/internal/assets/tests', {
    jti: engineJti,
    record_id: 'CW-20261122-100000',
    tests: {
      keyboard: { status: 'passed' },
      display: { status: 'passed' },
      usb_ports: { status: 'passed' },
      wifi_adapter: { status: 'detected' },
      webcam: { status: 'failed', detail: 'no image' },
    },
  });
  await cloud.internal('/internal/assets/notes', { jti: engineJti, record_id: 'CW-20261122-100000', notes: 'Hinge cracked on the left side.' });

  // Each wipe belongs to a real check-in: the engine suffixes its job_id per drive, the hotswap
  // station reports it as issued (only such results are certified).
  const wipe = async (name: string, jti: string, fields: object) => {
    const issued = (await cloud.internal('/internal/tokens/validate', { jti })).json.job_id as string;
    const res = await cloud.internal('/internal/wipe_results', {
      jti,
      job_id: jti === hotswapJti ? issued : `${issued}-0`,
      wipe_method: 'NIST 800-88 R2 Purge',
      started_at: '2026-11-22T10:00:00Z',
      ...fields,
    });
    ids[name] = res.json.wipe_result_id;
  };
  await wipe('certified', engineJti, {
    drive_model: 'SAMSUNG MZVLB512HAJQ-000L7', drive_serial: 'S4DYNX0M123456', drive_capacity_gb: 512,
    completed_at: '2026-11-22T10:12:30Z', wipe_status: 'completed',
  });
  await wipe('failed', engineJti, {
    drive_model: 'ST1000DM003-1CH162', drive_serial: 'Z1D5K2XX', drive_capacity_gb: 1000, wipe_method: 'NIST 800-88 R2 Clear',
    completed_at: '2026-11-22T11:40:00Z', wipe_status: 'failed',
  });
  await wipe('pending', hotswapJti, {
    drive_model: 'WDC WD20EZRZ-00Z5HB0', drive_serial: 'WD-WCC4M0', drive_capacity_gb: 2000, completed_at: '2026-11-22T13:05:00Z',
  });
  await wipe('cancelled', engineJti, {
    drive_model: 'TOSHIBA MQ01ABD100', drive_serial: 'X7TQ11', drive_capacity_gb: 1000, completed_at: '2026-11-22T09:30:00Z',
    wipe_status: 'cancelled',
  });
  // The certificate pipeline finished the first one.
  const wr = (await cloud.db.one<{ id: number }>('SELECT id FROM wipe_results WHERE public_id = @id', { id: ids.certified }))!.id;
  await cloud.db.run("UPDATE wipe_results SET certificate_status = 'complete' WHERE id = @wr", { wr });
  await cloud.db.run("UPDATE certificates SET status = 'complete' WHERE wipe_result_id = @wr", { wr });
  const certificate = (await cloud.db.one<{ public_id: string; certificate_number: string }>(
    'SELECT public_id, certificate_number FROM certificates WHERE wipe_result_id = @wr',
    { wr },
  ))!;
  return { ids, engineJti, hotswapJti, assetId: asset.json.asset_id as string, certificate };
}
