import { describe, expect, it } from 'vitest';
import { derivedHdparmSecurity } from '../../test/support/derived-hdparm.js';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { parseHdparmDco, parseHdparmHpa, parseHdparmIdentify, parseHdparmIssued } from './hdparm.js';
import type { ParseResult } from './parse-result.js';

const ok = <T>(r: ParseResult<T>): T => {
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const identify = (name: string) => ok(parseHdparmIdentify(fixtureText('hdparm', name)));

describe.skipIf(!fixturesPresent)(`hdparm parsers over ${FIXTURES_SKIP_NOTE}`, () => {
  it('reads a not-frozen Samsung 850 EVO with enhanced erase times and self-encryption', () => {
    const sut = identify('samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt');
    expect(sut).toMatchObject({
      model: 'Samsung SSD 850 EVO 2TB',
      serial: 'S2RLNX0H700433B',
      firmware: 'EMT02B6Q',
      lba48Sectors: 3907029168,
      logicalSectorSize: 512,
      rotationRpm: 0,
      hpaFeature: true,
      dcoFeature: true,
      encryptsAllUserData: true,
      sanitize: { supported: false, cryptoScramble: false, blockErase: false, overwrite: false },
    });
    expect(sut.security).toEqual({
      supported: true,
      enabled: false,
      locked: false,
      frozen: false,
      countExpired: false,
      enhancedEraseSupported: true,
      eraseMinutes: 2,
      enhancedEraseMinutes: 8,
      masterPasswordRevision: 65534,
    });
    expect(sut.security?.level).toBeUndefined();
  });

  it('reads the master password revision code of every real capture, and no security level while no password is set', () => {
    for (const name of ['teamgroup-a400-2tb-sata-ssd-hdparm-I-frozen.txt', 'tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt']) {
      const sec = identify(name).security;
      expect(sec).toMatchObject({ supported: true, enabled: false, locked: false, countExpired: false, masterPasswordRevision: 65534, eraseMinutes: 2 });
      expect(sec?.level).toBeUndefined();
    }
  });

  it('reads a locked drive at security level high (derived from the real Samsung capture, Security lines only)', () => {
    const sut = ok(parseHdparmIdentify(derivedHdparmSecurity({ locked: true, level: 'high', masterRevision: 1 })));
    expect(sut.security).toEqual({
      supported: true,
      enabled: true,
      locked: true,
      frozen: false,
      countExpired: false,
      enhancedEraseSupported: true,
      eraseMinutes: 2,
      enhancedEraseMinutes: 8,
      level: 'high',
      masterPasswordRevision: 1,
    });
    expect(sut.serial).toBe('S2RLNX0H700433B');
  });

  it('reads a locked drive at security level maximum whose attempt count expired (derived, Security lines only)', () => {
    const sut = ok(parseHdparmIdentify(derivedHdparmSecurity({ locked: true, level: 'maximum', expired: true })));
    expect(sut.security).toMatchObject({ enabled: true, locked: true, countExpired: true, level: 'maximum', masterPasswordRevision: 65534 });
  });

  it('reads an unlocked drive with a password still set (derived, Security lines only)', () => {
    const sut = ok(parseHdparmIdentify(derivedHdparmSecurity({ locked: false, level: 'high' })));
    expect(sut.security).toMatchObject({ enabled: true, locked: false, countExpired: false, level: 'high' });
  });

  it('reads frozen security and the SANITIZE block erase feature', () => {
    const sut = identify('tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt');
    expect(sut.security).toMatchObject({ supported: true, frozen: true, enabled: false, enhancedEraseMinutes: 2 });
    expect(sut.sanitize).toEqual({ supported: true, cryptoScramble: false, blockErase: true, overwrite: false });
    expect(sut.features.get('SANITIZE feature set')).toBe(true);
    expect(sut.dcoFeature).toBe(false);
    expect(identify('teamgroup-a400-2tb-sata-ssd-hdparm-I-frozen.txt').lba48Sectors).toBe(4000797360);
  });

  it('reads HPA enabled and disabled from hdparm -N', () => {
    expect(ok(parseHdparmHpa(fixtureText('hdparm', 'forensicswiki-hdparm-N-hpa-enabled.txt')))).toEqual({
      visibleSectors: 586070255,
      nativeSectors: 586072368,
      hpaEnabled: true,
      hiddenSectors: 2113,
    });
    expect(ok(parseHdparmHpa(fixtureText('hdparm', 'forensicswiki-hdparm-N-hpa-disabled.txt')))).toMatchObject({
      hpaEnabled: false,
      hiddenSectors: 0,
    });
  });

  it('reads the DCO real max sectors and feature words', () => {
    const sut = ok(parseHdparmDco(fixtureText('hdparm', 'forensicswiki-hdparm-dco-identify.txt')));
    expect(sut.revision).toBe(1);
    expect(sut.realMaxSectors).toBe(1465149168);
    expect(sut.features).toEqual(expect.arrayContaining(['security', 'HPA', 'NCQ', 'WRITE_UNC_EXT']));
  });

  it('lists the security commands hdparm issued, without the password', () => {
    const sut = ok(parseHdparmIssued(fixtureText('hdparm', 'intel-ssdsc2cw240a3-hdparm-security-set-pass-and-erase-transcript.txt')));
    expect(sut).toEqual([
      { device: '/dev/sdc', command: 'SECURITY_SET_PASS', user: 'user', mode: 'high' },
      { device: '/dev/sdc', command: 'SECURITY_ERASE', user: 'user' },
    ]);
  });
});
