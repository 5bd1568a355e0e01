import { randomUUID } from 'node:crypto';

/** Valid device bodies and a valid cloud success answer for every forwarded route. */
export const fingerprint = {
  system: { manufacturer: 'Dell Inc.', product: 'Latitude 7490', serial: 'CN0ABC123', uuid: '4c4c4544-0042-3510-8057-b4c04f4e4d32' },
  cpu: { model: 'Intel(R) Core(TM) i7-8650U' },
  memory: { total_bytes: 17179869184 },
  storage: [{ model: 'SAMSUNG MZ7LN512', serial: 'S3TANX0K123456' }],
};

export const recordBody = { record_id: 'CW-20261122-130712', engine_version: '4.2.0', fingerprint };
export const notesBody = { record_id: 'CW-20261122-130712', notes: 'hinge cracked; battery swollen' };
export const testsBody = { record_id: 'CW-20261122-130712', tests: { keyboard: { status: 'passed' }, webcam: { status: 'failed', detail: 'no device' } } };
export const wipeResultBody = {
  job_id: `${randomUUID()}-0`,
  drive_serial: 'S3TANX0K123456',
  drive_model: 'SAMSUNG MZ7LN512',
  drive_capacity_gb: 512,
  wipe_method: 'NVMe Sanitize (crypto erase)',
  started_at: '2026-11-22T13:07:12Z',
  completed_at: '2026-11-22T13:09:40Z',
  wipe_status: 'completed',
  validation: 'approved',
};
export const chassisMapBody = {
  record_id: 'CW-20261122-130712',
  fingerprint,
  map: { name: 'R740 front', bays: [{ lane: '0', label: 'Bay 1' }, { lane: '1', label: 'Bay 2' }] },
};
export const chassisLookupBody = { system: { uuid: fingerprint.system.uuid, serial: fingerprint.system.serial } };

export const certificatesLookupBody = { job_ids: [wipeResultBody.job_id] };
export const certificatesFound = {
  certificates: [{ job_id: wipeResultBody.job_id, wipe_result_id: 'wr_9', certificate_number: 'CW-000001', certificate_status: 'pending' }],
};

export const validationReportBody = {
  validation_id: 'val-7f3a',
  certificate_number: 'CW-000001',
  drive_serial: wipeResultBody.drive_serial,
  result: 'rejected',
  reason: 'a PDF document was found at byte 1048576',
};
export const validationRecorded = {
  ok: true,
  validation: 'rejected',
  disposition: 'review',
  wipe_result_id: 'wr_9',
  certificate_number: 'CW-000001',
  lot_id: 'lot_1',
};

export const assetAccepted = { ok: true, asset_id: 'asset_7' };
export const wipeAccepted = { ok: true, wipe_result_id: 'wr_9', certificate_status: 'pending' };
export const chassisSaved = { ok: true, chassis_map_id: 'cmap_3', asset_id: 'asset_8' };
export const storedMap = { name: 'R740 front', bays: [{ lane: '0', label: 'Bay 1' }] };

/** Each write route: device path, internal path, body, the cloud's success (status and body), and the rejection noun. */
export const WRITES = [
  { path: '/api/record', internal: '/internal/assets', body: recordBody, status: 201, ok: assetAccepted, what: 'asset report' },
  { path: '/api/notes', internal: '/internal/assets/notes', body: notesBody, status: 200, ok: assetAccepted, what: 'notes' },
  { path: '/api/tests', internal: '/internal/assets/tests', body: testsBody, status: 200, ok: assetAccepted, what: 'test results' },
  { path: '/api/wipe_result', internal: '/internal/wipe_results', body: wipeResultBody, status: 201, ok: wipeAccepted, what: 'wipe result' },
  { path: '/api/chassis_map', internal: '/internal/chassis_maps', body: chassisMapBody, status: 201, ok: chassisSaved, what: 'chassis map' },
  {
    path: '/api/chassis_map/lookup',
    internal: '/internal/chassis_maps/lookup',
    body: chassisLookupBody,
    status: 200,
    ok: { found: true, map: storedMap },
    what: 'chassis map lookup',
  },
  {
    path: '/api/certificates/lookup',
    internal: '/internal/certificates/lookup',
    body: certificatesLookupBody,
    status: 200,
    ok: certificatesFound,
    what: 'certificate lookup',
  },
  {
    path: '/api/validation',
    internal: '/internal/validations',
    body: validationReportBody,
    status: 201,
    ok: validationRecorded,
    what: 'validation report',
  },
] as const;

export const verifyAllow = { allow: true, status: 'active', account: 'Acme Recyclers', quota_remaining: 12 };
export const validateAllow = { allow: true, status: 'active', quota_remaining: 11, job_id: randomUUID() };
