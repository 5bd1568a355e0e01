import { createPublicKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import {
  certificateKeyId,
  currentSigningKey,
  keyringLookup,
  rawPublicKeyBase64,
  recordPublicKey,
  SIGNING_KEY_FILE,
  type SigningKey,
} from './certificate-keyring.js';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { devicePrivateKey, generateDeviceKeyPair } from '@erasure/shared';

/**
 * Reads the secret in `path`, creating it with `generate()` on first use. Creation writes a
 * private (0600) temporary file, fsyncs it and hard-links it into place: link fails if the
 * file exists, so when `serve` and a separate `worker` start together exactly one secret wins
 * and both read it.
 */
export function loadOrCreateSecretFile(path: string, generate: () => string): string {
  try {
    return readSecret(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${randomUUID()}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, `${generate()}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
    const dir = openSync(dirname(path), 'r');
    fsyncSync(dir);
    closeSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(tmp, { force: true });
  }
  return readSecret(path);
}

function readSecret(path: string): string {
  const value = readFileSync(path, 'utf8').trim();
  if (value === '') throw new Error(`secret file ${path} is empty`);
  return value;
}

/** The keys behind certificates: Ed25519 for the signed content, HMAC for presigned URLs. */
export interface CertificateKeys {
  /** The signing key as loaded; {@link signing} follows rotations. */
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Base64 of the raw 32-byte public key, as `certificate-public-key` publishes it. */
  publicKeyBase64: string;
  keyId: string;
  /** The current signing key, re-read after `rotate-certificate-key` (no restart needed). */
  signing: () => SigningKey;
  /** Public keys for a signature's key id (all on record for a signature without one). */
  publicKeys: (keyId: string | undefined) => readonly KeyObject[];
  /** Keys the HMAC of presigned `/files/…` URLs. */
  urlSigningSecret: Buffer;
}

/**
 * The certificate keys of a deployment. The signing key is `CERTIFICATE_SIGNING_KEY` (base64 raw
 * seed) when configured, else `${DATA_DIR}/keys/certificate-signing-key`, generated on first
 * start; the URL secret is always `${DATA_DIR}/keys/url-signing-secret`. Every process on the
 * same DATA_DIR (server, workers, CLI) therefore signs and verifies with the same keys. The
 * current public key is recorded in the keyring on load, so after a rotation (or a changed
 * CERTIFICATE_SIGNING_KEY) certificates it signed still verify.
 */
export function loadCertificateKeys(input: { dataDir: string; signingKeyBase64?: string | undefined }): CertificateKeys {
  const keysDir = join(input.dataDir, 'keys');
  const seed = input.signingKeyBase64 ?? loadOrCreateSecretFile(join(keysDir, SIGNING_KEY_FILE), () => generateDeviceKeyPair().privateKey);
  const privateKey = devicePrivateKey(seed);
  const publicKey = createPublicKey(privateKey);
  recordPublicKey(keysDir, privateKey, new Date().toISOString());
  const url = loadOrCreateSecretFile(join(keysDir, 'url-signing-secret'), () => randomBytes(32).toString('hex'));
  return {
    privateKey,
    publicKey,
    publicKeyBase64: rawPublicKeyBase64(publicKey),
    keyId: certificateKeyId(publicKey),
    signing: currentSigningKey(keysDir, input.signingKeyBase64),
    publicKeys: keyringLookup(keysDir),
    urlSigningSecret: Buffer.from(url, 'hex'),
  };
}
