import { afterAll, beforeAll, beforeEach } from 'vitest';
import { SECRET, startGateway, type GatewayUnderTest } from './gateway.js';
import { mintToken, newFleet } from './tokens.js';
import { startFakeCloud, type FakeCloud } from './upstream.js';

/** A gateway in front of a scripted fake cloud, and a device token of the fleet it trusts. */
export interface ForwardingGateway {
  readonly cloud: FakeCloud;
  readonly sut: GatewayUnderTest;
  readonly token: string;
  readonly jti: string;
}

/**
 * For a describe block of forwarded device routes: starts the fake cloud and the gateway before
 * its tests, stops both after them, and forgets what the cloud saw before each test. The fields
 * are read inside tests, once the block's `beforeAll` has run.
 */
export function forwardingGateway(): ForwardingGateway {
  const fleet = newFleet();
  let started: ForwardingGateway | undefined;
  beforeAll(async () => {
    const cloud = await startFakeCloud(SECRET);
    const sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: SECRET, timeoutMs: 300 });
    started = { cloud, sut, ...(await mintToken(fleet)) };
  });
  afterAll(async () => {
    await started?.sut.close();
    await started?.cloud.close();
  });
  beforeEach(() => started?.cloud.reset());
  const get = (): ForwardingGateway => {
    if (!started) throw new Error('forwardingGateway() is read before its beforeAll ran');
    return started;
  };
  return {
    get cloud() {
      return get().cloud;
    },
    get sut() {
      return get().sut;
    },
    get token() {
      return get().token;
    },
    get jti() {
      return get().jti;
    },
  };
}
