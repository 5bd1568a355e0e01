import { describe, expect, it } from 'vitest';
import { hardwareUid, meaningfulDmi, meaningfulUuid } from './dmi.js';

describe('DMI identity', () => {
  it.each(['To Be Filled By O.E.M.', 'Default string', 'System Serial Number', '  ', 'Not Specified'])(
    'treats the placeholder %j as missing',
    (value) => expect(meaningfulDmi(value)).toBeUndefined(),
  );

  it.each(['00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'])(
    'treats the UUID %s as missing',
    (value) => expect(meaningfulUuid(value)).toBeUndefined(),
  );

  it('keys hardware_uid on <system.uuid>/<system.serial>', () => {
    expect(hardwareUid({ uuid: '4C4C4544-0042-3510-8051-B4C04F564E32', serial: 'B5QVN32' }, 'CW-20260101-000000')).toBe(
      '4c4c4544-0042-3510-8051-b4c04f564e32/B5QVN32',
    );
  });

  it('falls back to record_id when DMI identity is missing', () => {
    expect(hardwareUid({ uuid: '03000200-0400-0500-0006-000700080009'.replace(/./g, '0'), serial: 'Default string' }, 'CW-20260101-000000')).toBe(
      'CW-20260101-000000',
    );
    expect(hardwareUid(undefined, 'CW-20260101-000001')).toBe('CW-20260101-000001');
  });
});
