import { describe, expect, it } from 'vitest';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { parseHdparmDco, parseHdparmHpa, parseHdparmIdentify } from '../probes/hdparm.js';
import { parseNvmeIdCtrlText, parseNvmeIdCtrlJson } from '../probes/nvme-id.js';
import { parseSmartctlJsonText } from '../probes/smartctl-json.js';
import type { ParseResult } from '../probes/parse-result.js';
import { buildCapabilities } from './capabilities.js';
import { planErase, type ErasePlan } from './plan-erase.js';

const ok = <T>(r: ParseResult<T>): T => {
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};

describe.skipIf(!fixturesPresent)(`capabilities and plans from ${FIXTURES_SKIP_NOTE}`, () => {
  it('Samsung 850 EVO not frozen: enhanced SE, 8 minutes by the drive', () => {
    const caps = buildCapabilities({ device: '/dev/sda', hdparm: ok(parseHdparmIdentify(fixtureText('hdparm', 'samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt'))) });
    expect(caps).toMatchObject({ transport: 'sata', selfEncrypting: true, ataSecurity: { frozen: false, enhancedErase: true } });
    expect(planErase(caps)).toMatchObject({ method: 'ata-secure-erase-enhanced', expectedMinutes: 8, label: 'NIST 800-88 R2 Purge' });
  });

  it('Tesla SSD frozen with sanitize: Clear until unfrozen', () => {
    const caps = buildCapabilities({ device: '/dev/sdl', hdparm: ok(parseHdparmIdentify(fixtureText('hdparm', 'tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt'))) });
    expect(caps.ataSanitize).toEqual({ crypto: false, block: true, overwrite: false });
    const plan = planErase(caps) as ErasePlan;
    expect(plan.method).toBe('overwrite');
    expect(plan.rejected.find((r) => r.method === 'ata-sanitize-block')?.reason).toMatch(/frozen/);
  });

  it('T-Force NVMe: sanitize block erase; WDC SN730: sanitize crypto erase', () => {
    const tforce = buildCapabilities({ device: '/dev/nvme0n1', nvmeIdCtrl: ok(parseNvmeIdCtrlText(fixtureText('nvme', 'teamgroup-tforce-tm8fpl500g-nvme-id-ctrl-H.txt'))) });
    expect(planErase(tforce)).toMatchObject({ method: 'nvme-sanitize-block' });
    const sn730 = buildCapabilities({ device: '/dev/nvme0n1', nvmeIdCtrl: ok(parseNvmeIdCtrlJson(JSON.parse(fixtureText('nvme', 'wdc-pc-sn730-nvme-id-ctrl-nvmecli1x.json')))) });
    expect(planErase(sn730)).toMatchObject({ method: 'nvme-sanitize-crypto' });
    const samsung980 = buildCapabilities({ device: '/dev/nvme0n1', nvmeIdCtrl: ok(parseNvmeIdCtrlJson(JSON.parse(fixtureText('nvme', 'samsung-980pro-1tb-nvme-id-ctrl-json-sorted.json')))) });
    expect(planErase(samsung980)).toMatchObject({ method: 'nvme-format-crypto', technique: 'NVMe Format, Cryptographic Erase (SES=2)' });
  });

  it('the JMicron USB disk gets a Clear overwrite only', () => {
    const caps = buildCapabilities({ device: '/dev/sdc', smart: ok(parseSmartctlJsonText(fixtureText('smartctl', 'hitachi-hds721050dle630-usb-jmicron-failing-smartctl-a.json'))) });
    expect(caps).toMatchObject({ transport: 'usb', viaUsbBridge: true, rotational: true, sizeBytes: 500107862016 });
    expect(planErase(caps)).toMatchObject({ method: 'overwrite', category: 'Clear' });
  });

  it('an enabled HPA becomes a restore precondition', () => {
    const caps = buildCapabilities({
      device: '/dev/sdc',
      hdparm: ok(parseHdparmIdentify(fixtureText('hdparm', 'samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt'))),
      hpa: ok(parseHdparmHpa(fixtureText('hdparm', 'forensicswiki-hdparm-N-hpa-enabled.txt'))),
    });
    expect(caps.hpaHiddenSectors).toBe(2113);
    expect(planErase(caps)).toMatchObject({ preconditions: ['restore-hpa'] });
  });

  it('a DCO whose real max is above the native max becomes a restore precondition', () => {
    // No capture of a DCO-shrunk drive's -N exists: hdparm's layout, 4800 sectors below the DCO's real max.
    const shrunk = ' max sectors   = 1465144368/1465144368, HPA is disabled\n';
    const caps = buildCapabilities({
      device: '/dev/sda',
      hdparm: ok(parseHdparmIdentify(fixtureText('hdparm', 'samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt'))),
      hpa: ok(parseHdparmHpa(shrunk)),
      dco: ok(parseHdparmDco(fixtureText('hdparm', 'forensicswiki-hdparm-dco-identify.txt'))),
    });
    expect(caps).toMatchObject({ dcoHiddenSectors: 4800 });
    expect(caps.hpaHiddenSectors).toBeUndefined();
    expect(planErase(caps)).toMatchObject({ preconditions: ['restore-dco'], fullySanitized: true });
  });

  it('a DCO that matches the native max hides nothing', () => {
    const caps = buildCapabilities({
      device: '/dev/sda',
      hpa: ok(parseHdparmHpa(fixtureText('hdparm', 'forensicswiki-hdparm-N-hpa-disabled.txt'))),
      dco: ok(parseHdparmDco(fixtureText('hdparm', 'forensicswiki-hdparm-dco-identify.txt'))),
    });
    expect(caps.dcoHiddenSectors).toBeUndefined();
  });
});
