import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ERASURE_POLICY,
  ErasurePolicySchema,
  findMethod,
  METHOD_CATALOGUE,
  METHOD_IDS,
  parseVerificationLevel,
  VerificationLevelSchema,
  type PassPattern,
} from './erasure-methods.js';

/**
 * Each method's passes as its source writes them, transcribed apart from the catalogue:
 * `00`/`FF`/`AA` a byte, `92.49.24` a repeating byte run, `~` the complement of the pass before,
 * `R` random; a trailing `v` means the source asks for that pass to be verified.
 */
const SOURCES: Record<string, string> = {
  'nist-800-88-purge': '', // firmware sanitize, no overwrite passes
  'nist-800-88-clear': '00',
  zeros: '00',
  prng: 'R',
  'prng-3': 'R R R',
  'dod-5220.22-m-3': '00 ~ Rv', // NISPOM §8-306: character, complement, random, verify
  'dod-5220.22-m-ece-7': '00 ~ R 96 00 ~ Rv', // methods E, C, E
  'hmg-is5-baseline': '00v',
  'hmg-is5-enhanced': '00 FF Rv',
  'bsi-2011-vs': 'R 00 FF Rv',
  'bsi-gs': 'R', // then the firmware erase
  'csec-itsg-06': 'FF ~ Rv',
  'asd-ism': 'Rv',
  'nzsit-402': 'Rv',
  vsitr: '00 FF 00 FF 00 FF AAv',
  schneier: 'FF 00 R R R R R', // "all ones, all zeros, five times pseudo-random"
  'rcmp-tssit-ops-ii': '00 FF 00 FF 00 FF Rv',
  'gost-r-50739-95': '00 R',
  'ar-380-19': 'FF 00 Rv',
  'afssi-5020': 'R 00 FFv',
  // Gutmann 1996, Table 1: passes 1-35.
  gutmann: [
    'R R R R 55 AA 92.49.24 49.24.92 24.92.49',
    '00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF',
    '92.49.24 49.24.92 24.92.49 6D.B6.DB B6.DB.6D DB.6D.B6 R R R R',
  ].join(' '),
};

/** The catalogue's pass in the transcription's notation: bytes as written, so 0xFF reads the same as `one`. */
function notation(pattern: PassPattern): string {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');
  switch (pattern.kind) {
    case 'zero':
      return '00';
    case 'one':
      return 'FF';
    case 'byte':
      return hex(pattern.value);
    case 'bytes':
      return pattern.values.map(hex).join('.');
    case 'complement':
      return '~';
    case 'prng':
      return 'R';
  }
}

describe('the erasure method catalogue', () => {
  it('offers at least fifteen named methods beside the two NIST ones, with unique ids', () => {
    const named = METHOD_CATALOGUE.filter((m) => !m.id.startsWith('nist-'));
    expect(named.length).toBeGreaterThanOrEqual(15);
    expect(new Set(METHOD_IDS).size).toBe(METHOD_IDS.length);
    for (const id of METHOD_IDS) expect(id).toMatch(/^[a-z0-9]+(?:[.-][a-z0-9]+)*$/);
  });

  it.each(METHOD_CATALOGUE.map((m) => [m.id, m] as const))('%s writes exactly the passes its source lists', (id, method) => {
    const expected = SOURCES[id];
    expect(expected, `no transcribed source for ${id}`).toBeDefined();
    const written = method.passes.map((x) => notation(x.pattern) + (x.verify === 'none' ? '' : 'v')).join(' ');
    expect(written).toBe(expected);
  });

  it('names the pass count in the name wherever the name carries one', () => {
    for (const m of METHOD_CATALOGUE) {
      const count = /\((\d+) pass(?:es)?\)/.exec(m.name)?.[1];
      if (count) expect(m.passes.length, m.id).toBe(Number(count));
    }
    expect(findMethod('gutmann')?.passes).toHaveLength(35);
  });

  it('never starts a method with a complement, which has no pass before it', () => {
    for (const m of METHOD_CATALOGUE) expect(m.passes[0]?.pattern.kind, m.id).not.toBe('complement');
  });

  it('reads verification levels as the kernel command line writes them', () => {
    expect(parseVerificationLevel('full')).toBe('full');
    expect(parseVerificationLevel('every-pass')).toBe('every-pass');
    expect(parseVerificationLevel('sample:10')).toEqual({ sample: 10 });
    for (const bad of ['sample:0', 'sample:101', 'sample:', 'sample:1.5', 'partial', '']) expect(parseVerificationLevel(bad)).toBeUndefined();
    expect(Value.Check(VerificationLevelSchema, { sample: 0 })).toBe(false);
    expect(Value.Check(VerificationLevelSchema, { sample: 100 })).toBe(true);
  });

  it('keeps the default policy to today: NIST Purge, full verification, every method allowed', () => {
    expect(Value.Check(ErasurePolicySchema, DEFAULT_ERASURE_POLICY)).toBe(true);
    expect(DEFAULT_ERASURE_POLICY).toMatchObject({ default_method: 'nist-800-88-purge', verification: 'full' });
    expect(DEFAULT_ERASURE_POLICY.allowed_methods).toEqual([...METHOD_IDS]);
    expect(Value.Check(ErasurePolicySchema, { ...DEFAULT_ERASURE_POLICY, default_method: 'made-up' })).toBe(false);
    expect(Value.Check(ErasurePolicySchema, { ...DEFAULT_ERASURE_POLICY, allowed_methods: [] })).toBe(false);
  });
});
