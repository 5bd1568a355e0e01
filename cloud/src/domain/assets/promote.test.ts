import { describe, expect, it } from 'vitest';
import { formatDecimalBytes, promoteColumns } from './promote.js';

describe('promoted asset columns', () => {
  it('reads DMI identity, CPU, memory, storage and the weakest battery', () => {
    const sut = promoteColumns({
      system: { manufacturer: 'Dell Inc.', product: 'Latitude 7490', serial: 'B5QVN32', uuid: 'x', asset_tag: 'IT-0042' },
      baseboard: { product: '0KP0FT', serial: '/B5QVN32/CN1296385B0123/' },
      bios: { version: '1.21.0' },
      firmware: { mode: 'UEFI', secure_boot: true },
      tpm: { version: '2.0' },
      cpu: { model: 'Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz', cores: 4, threads: 8 },
      memory: { total_bytes: 17_179_869_184 },
      gpus: [{ model: 'UHD Graphics 620' }],
      storage: [
        { model: 'SAMSUNG MZVLB512HAJQ', serial: 'S4DYNX0M123456', size_bytes: 512_110_190_592, media_type: 'SSD', transport: 'NVMe' },
        { model: 'ST1000LM035', serial: 'WL1234AB', size_bytes: 1_000_204_886_016, media_type: 'HDD', transport: 'SATA' },
      ],
      batteries: [{ health_pct: 87.6 }, { health_pct: 64.2 }],
    });
    expect(sut).toMatchObject({
      manufacturer: 'Dell Inc.',
      model: 'Latitude 7490',
      serial_number: 'B5QVN32',
      asset_tag: 'IT-0042',
      board_model: '0KP0FT',
      bios_version: '1.21.0',
      firmware_mode: 'UEFI',
      secure_boot: true,
      tpm_version: '2.0',
      cpu_cores: 4,
      cpu_threads: 8,
      memory_total_bytes: 17_179_869_184,
      gpu: 'UHD Graphics 620',
      storage_summary: '512 GB NVMe SSD SAMSUNG MZVLB512HAJQ, 1 TB SATA HDD ST1000LM035',
      storage_serials: 'S4DYNX0M123456, WL1234AB',
      battery_health_pct: 64,
    });
  });

  it('accepts the sandbox examples vendor/model and drops placeholders', () => {
    const sut = promoteColumns({ system: { vendor: 'LENOVO', model: '20L5', serial: 'To Be Filled By O.E.M.' } });
    expect(sut.manufacturer).toBe('LENOVO');
    expect(sut.model).toBe('20L5');
    expect(sut.serial_number).toBeNull();
  });

  it('leaves every column null for an empty fingerprint', () => {
    expect(Object.values(promoteColumns({})).every((v) => v === null)).toBe(true);
  });

  it('formats capacities in decimal units', () => {
    expect(formatDecimalBytes(256_060_514_304)).toBe('256 GB');
    expect(formatDecimalBytes(2_000_398_934_016)).toBe('2 TB');
    expect(formatDecimalBytes(1_500_000_000_000)).toBe('1.5 TB');
  });
});
