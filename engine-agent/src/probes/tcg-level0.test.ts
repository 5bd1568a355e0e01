import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPostedHexDump } from '../../test/support/hex-dump.js';
import { workspaceDir } from '../../test/support/fixtures.js';
import type { ParseResult } from './parse-result.js';
import { describeSelfEncryption } from './tcg-discovery.js';
import { level0Features, parseLevel0Discovery, parseSgRawHexDump } from './tcg-level0.js';

const sed = (name: string) => readFileSync(join(workspaceDir, 'test', 'fixtures', 'sed', name), 'utf8');
const ok = <T>(r: ParseResult<T>): T => {
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const level0 = (bytes: Uint8Array) => ok(parseLevel0Discovery(bytes));
const sgRaw = (name: string) => ok(parseSgRawHexDump(sed(name)));
const SATA = 'level0-sata-opal2-unlocked.sedutil-dump.txt';

describe('TCG level 0 discovery, binary (real captures)', () => {
  it('reads a SATA Opal 2 drive, locking on, unlocked, MBR shadow done, past its vendor header bytes and vendor feature 0xC001', () => {
    const bytes = readPostedHexDump(sed(SATA));
    expect(bytes.length).toBe(0xbc);
    expect(level0(bytes)).toEqual({ family: 'Opal 2', lockingSupported: true, lockingEnabled: true, locked: false, mediaEncryption: true, mbrShadowEnabled: true, mbrDone: true });
    expect(ok(level0Features(bytes)).map((f) => f.code)).toEqual([0x0001, 0x0002, 0x0203, 0x0201, 0x0202, 0xc001, 0x0003]);
  });

  it('reads a Pyrite 1 drive whose locking was never set up, with no media encryption (Dell OEM Intel 7600p)', () => {
    expect(level0(readPostedHexDump(sed('level0-nvme-intel7600p-pyrite1-not-enabled.sedutil-dump.txt')))).toEqual({
      family: 'Pyrite 1', lockingSupported: true, lockingEnabled: false, locked: false, mediaEncryption: false, mbrShadowEnabled: false, mbrDone: false,
    });
  });

  it('reads an Opal 2 drive returned by a Security Receive, locking not set up', () => {
    const state = level0(readPostedHexDump(sed('level0-nvme-opal2-not-enabled.security-receive-dump.txt')));
    expect(state).toMatchObject({ family: 'Opal 2', lockingSupported: true, lockingEnabled: false, locked: false, mediaEncryption: true });
    expect(describeSelfEncryption({ kind: 'tcg', tool: 'sg_raw security protocol in', ...state! })).toBe('self-encrypting (Opal 2, locking off)');
  });
});

describe('TCG level 0 discovery, edge cases', () => {
  const header = (length: number) => [0, 0, 0, length, 0, 0, 0, 1, ...Array(40).fill(0)];

  it('says a drive without a Locking feature is not self-encrypting (null), and a header of length 0 too', () => {
    expect(level0(Uint8Array.from([...header(16), 0x00, 0x01, 0x10, 0x0c, 0x11, ...Array(11).fill(0)]))).toBeNull();
    expect(level0(new Uint8Array(2048))).toBeNull();
  });

  it('reads the flags bit by bit: 0x04 alone is locked', () => {
    expect(level0(Uint8Array.from([...header(16), 0x00, 0x02, 0x10, 0x0c, 0x04, ...Array(11).fill(0)]))).toEqual({
      lockingSupported: false, lockingEnabled: false, locked: true, mediaEncryption: false, mbrShadowEnabled: false, mbrDone: false,
    });
  });

  it('reads a length that counts only the descriptors (HGST SSD400M) as such', () => {
    const bytes = Uint8Array.from([0, 0, 0, 16, ...Array(44).fill(0), 0x00, 0x02, 0x10, 0x0c, 0x07, ...Array(11).fill(0)]);
    expect(level0(bytes)).toMatchObject({ locked: true, lockingEnabled: true });
  });

  it('refuses a response shorter than its header, rather than guessing', () => {
    expect(parseLevel0Discovery(Uint8Array.from([0, 0, 0, 0x40, 0, 0]))).toEqual({ ok: false, reason: 'a level 0 discovery response has a 48-byte header; got 6 bytes' });
  });
});

describe("sg_raw's hex dump (sg3_utils dStrHexFp format)", () => {
  it('gives back the 2048 bytes: the real SATA capture, then the zeros of the rest of its 512-byte blocks', () => {
    const bytes = sgRaw('sg-raw-level0-sata-opal2-unlocked.DERIVED.stderr.txt');
    const real = readPostedHexDump(sed(SATA));
    expect(bytes.length).toBe(2048);
    expect(bytes.subarray(0, real.length)).toEqual(real);
    expect(bytes.subarray(real.length).every((b) => b === 0)).toBe(true);
  });

  it('the DERIVED locked and reverted dumps differ from their parent only in the Locking flags byte (0x1f, 0x09)', () => {
    const parent = sgRaw('sg-raw-level0-sata-opal2-unlocked.DERIVED.stderr.txt');
    for (const [name, flags] of [['sg-raw-level0-sata-opal2-locked.DERIVED.stderr.txt', 0x1f], ['sg-raw-level0-sata-opal2-reverted.DERIVED.stderr.txt', 0x09]] as const) {
      const bytes = sgRaw(name);
      expect(bytes.findIndex((b, i) => b !== parent[i])).toBe(0x44);
      expect(bytes[0x44]).toBe(flags);
      expect(bytes.filter((b, i) => b !== parent[i]).length).toBe(1);
    }
    expect(level0(sgRaw('sg-raw-level0-sata-opal2-locked.DERIVED.stderr.txt'))).toMatchObject({ family: 'Opal 2', locked: true, lockingEnabled: true, mbrShadowEnabled: true, mbrDone: false });
    expect(level0(sgRaw('sg-raw-level0-sata-opal2-reverted.DERIVED.stderr.txt'))).toMatchObject({ family: 'Opal 2', locked: false, lockingEnabled: false });
  });

  it('reads the Enterprise SAS dump as Enterprise, locked', () => {
    expect(level0(sgRaw('sg-raw-level0-sas-enterprise-locked.DERIVED.stderr.txt'))).toEqual({
      family: 'Enterprise', lockingSupported: true, lockingEnabled: true, locked: true, mediaEncryption: true, mbrShadowEnabled: false, mbrDone: false,
    });
  });

  it('refuses a dump that skips lines or stops short of the byte count sg_raw gave', () => {
    const text = sed('sg-raw-level0-sata-opal2-unlocked.DERIVED.stderr.txt');
    expect(parseSgRawHexDump(text.replace(/^ 10 .*\n/m, ''))).toEqual({ ok: false, reason: 'the hex dump skips from byte 16 to 20' });
    expect(parseSgRawHexDump(text.split('\n').slice(0, 20).join('\n'))).toEqual({ ok: false, reason: 'sg_raw said 2048 bytes and dumped 272' });
    expect(parseSgRawHexDump(sed('sg-raw-invalid-opcode.DERIVED.stderr.txt'))).toEqual({ ok: false, reason: 'no "Received N bytes of data" in the sg_raw output' });
  });
});
