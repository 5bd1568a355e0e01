import { randomBytes } from 'node:crypto';
import { generateDeviceKeyPair } from '@erasure/shared';

/** Fresh secrets for one deployment (CONTRACT.md `erasure-cloud keygen`). */
export function keygen(): { device_token_private_key: string; device_token_pubkey: string; internal_api_secret: string } {
  const pair = generateDeviceKeyPair();
  return {
    device_token_private_key: pair.privateKey,
    device_token_pubkey: pair.publicKey,
    internal_api_secret: randomBytes(32).toString('hex'),
  };
}
