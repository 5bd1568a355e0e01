import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyedSignature, parseKeyedSignature, verifyKeyedBytes } from './certificate-content.js';
import { sign } from 'node:crypto';

const bytes = Buffer.from('{"schema":"x"}');
const pairA = generateKeyPairSync('ed25519');
const pairB = generateKeyPairSync('ed25519');
const sigA = sign(null, bytes, pairA.privateKey).toString('base64');
const keys = { aaaaaaaaaaaaaaaa: pairA.publicKey, bbbbbbbbbbbbbbbb: pairB.publicKey } as const;
const lookup = async (keyId: string | undefined) =>
  keyId === undefined ? Object.values(keys) : keyId in keys ? [keys[keyId as keyof typeof keys]] : [];

describe('keyed certificate signatures (key rotation)', () => {
  it('names the key that signed: <key id>.<base64 signature>', () => {
    expect(parseKeyedSignature(keyedSignature('aaaaaaaaaaaaaaaa', sigA))).toEqual({ keyId: 'aaaaaaaaaaaaaaaa', signature: sigA });
  });

  it('verifies with the key its id names, including a retired one', async () => {
    expect(await verifyKeyedBytes(lookup, bytes, keyedSignature('aaaaaaaaaaaaaaaa', sigA))).toBe(true);
  });

  it('a signature made before key ids existed verifies against the keys on record', async () => {
    expect(await verifyKeyedBytes(lookup, bytes, sigA)).toBe(true);
  });

  it('fails closed for an unknown key id, a key id swapped to another key, or a malformed one', async () => {
    expect(await verifyKeyedBytes(lookup, bytes, keyedSignature('cccccccccccccccc', sigA))).toBe(false);
    expect(await verifyKeyedBytes(lookup, bytes, keyedSignature('bbbbbbbbbbbbbbbb', sigA))).toBe(false);
    expect(await verifyKeyedBytes(lookup, bytes, `AAAA.${sigA}`)).toBe(false);
    expect(await verifyKeyedBytes(lookup, Buffer.from('{"schema":"y"}'), keyedSignature('aaaaaaaaaaaaaaaa', sigA))).toBe(false);
  });
});
