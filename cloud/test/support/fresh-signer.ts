import { signServiceRequest } from '@erasure/shared';

/**
 * Signs internal calls the way the gateway does (gateway/src/signing-times.ts): each send gets
 * its own signature, a repeat of the same bytes within one second taking the next second, since
 * the cloud accepts a signature once (issue 28 item 6). Tests that mean to replay a call keep
 * its headers and send them again instead.
 */
export function freshSigner(secret: string): (payload: string, nowSeconds?: number) => ReturnType<typeof signServiceRequest> {
  const used = new Set<string>();
  return (payload, nowSeconds = Math.floor(Date.now() / 1000)) => {
    let timestamp = nowSeconds;
    while (used.has(`${timestamp}.${payload}`)) timestamp += 1;
    used.add(`${timestamp}.${payload}`);
    return signServiceRequest(secret, payload, timestamp);
  };
}
