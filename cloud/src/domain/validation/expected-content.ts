import { METHOD_CATALOGUE, type ErasureMethod, type ExpectedContent, type PassPattern } from '@erasure/shared';

/**
 * What an erasure left on a drive, for its validation read (issue 29), derived from the wipe
 * result's `wipe_method` and `technique` through the method catalogue: a named method leaves its
 * last pass's pattern (a random pass leaves high-entropy data); NIST Clear leaves zeros; a
 * firmware Purge leaves high-entropy data after a cryptographic erase and zeros otherwise (what
 * NVMe/ATA/SCSI block erase and the sanitize overwrites this engine runs read back as). Undefined
 * when the method is none this cloud knows, so nobody validates against a guess.
 */
export function expectedContentOf(wipeMethod: string | null, technique: string | null): ExpectedContent | undefined {
  const method = (wipeMethod ?? '').trim();
  const named = (METHOD_CATALOGUE as readonly ErasureMethod[]).find((m) => m.name === method);
  const crypto = /crypt/i.test(technique ?? '');
  if (named && named.technique !== 'overwrite') {
    // Firmware last (Purge, or BSI-GS's overwrite then firmware erase): the firmware decides.
    return crypto ? { kind: 'random' } : { kind: 'zeros' };
  }
  if (named) return lastPassContent(named.passes.map((p) => p.pattern));
  if (/^NIST 800-88 (R2 |Rev\. ?2 )?Clear$/i.test(method)) return { kind: 'zeros' };
  if (/^NIST 800-88 (R2 |Rev\. ?2 )?Purge$/i.test(method)) return crypto ? { kind: 'random' } : { kind: 'zeros' };
  return undefined;
}

/** The bytes the last pass wrote; a complement pass inverts the pass before it. */
function lastPassContent(passes: readonly PassPattern[]): ExpectedContent | undefined {
  const bytesOf = (index: number): number[] | 'random' | undefined => {
    const pass = passes[index];
    if (!pass) return undefined;
    switch (pass.kind) {
      case 'zero':
        return [0];
      case 'one':
        return [0xff];
      case 'byte':
        return [pass.value];
      case 'bytes':
        return [...pass.values];
      case 'prng':
        return 'random';
      case 'complement': {
        const before = bytesOf(index - 1);
        return Array.isArray(before) ? before.map((b) => ~b & 0xff) : before;
      }
    }
  };
  const last = bytesOf(passes.length - 1);
  if (last === undefined) return undefined;
  if (last === 'random') return { kind: 'random' };
  if (last.every((b) => b === 0)) return { kind: 'zeros' };
  return { kind: 'pattern', hex: Buffer.from(last).toString('hex') };
}
