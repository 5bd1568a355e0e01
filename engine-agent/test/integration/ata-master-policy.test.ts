import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ERASURE_POLICY } from '@erasure/shared';
import { createCloudClient } from '../../src/adapters/cloud-client.js';
import { createExecutors } from '../../src/adapters/session-interpreter.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { METHOD_INFO, type EraseMethod } from '../../src/drives/erase-methods.js';
import { nistLabel } from '../../src/drives/plan-erase.js';
import { headlessPolicy } from '../../src/image/headless-policy.js';
import { acceptPolicy } from '../../src/session/erasure-policy.js';
import { DEFAULT_LIMITS, type DriveJob, type SessionContext } from '../../src/session/types.js';
import { derivedHdparmSecurity } from '../support/derived-hdparm.js';
import { fakeRunner, noSleep } from '../support/fake-runner.js';
import { fixturesPresent, FIXTURES_SKIP_NOTE } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

// Issue 30 item 1, the way the account's master passwords take: the erasure policy the gateway
// hands over carries them (ErasurePolicyGranted.ata_master_passwords), the agent accepts them
// with the policy, and the session's erase of a locked drive tries them, while nothing the
// session keeps (its context, the outcome) holds one.
const MiB = 1024 * 1024;
const SIZE = 4 * MiB;
const METHOD: EraseMethod = 'ata-secure-erase-enhanced';
const FLEET = 'Fleet-Master-2019';
const work = loopSkipReason ? '' : makeWorkDir('ata-master-policy-');
afterAll(() => work && removeDir(work));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the erasure policy’s ATA master passwords', () => {
  it('are accepted with the policy as the unlock takes them, and a policy without any carries none', () => {
    const granted = { erasure_policy: DEFAULT_ERASURE_POLICY, source: 'account' as const };
    expect(acceptPolicy({ ...granted, ata_master_passwords: { passwords: [FLEET], factory_defaults: true } })).toMatchObject({ ok: true, masters: { account: [FLEET], vendorDefaults: true } });
    expect(acceptPolicy(granted)).not.toHaveProperty('masters');
    expect(acceptPolicy({ ...granted, ata_master_passwords: { passwords: [], factory_defaults: false } })).not.toHaveProperty('masters');
  });

  it('make a headless run plan a locked drive’s Security Erase and carry the passwords to its erase, not into its words', () => {
    const run = headlessPolicy(acceptPolicy({ erasure_policy: DEFAULT_ERASURE_POLICY, source: 'account', ata_master_passwords: { passwords: [FLEET], factory_defaults: false } }), {});
    expect(run).toMatchObject({ ok: true, plan: { ataMasterPasswords: true }, masters: { account: [FLEET], vendorDefaults: false } });
    expect(run.ok && run.words).not.toContain(FLEET);
  });

  describe.skipIf(Boolean(loopSkipReason) || !fixturesPresent)(`reach the erase of a locked drive (loop device, fake hdparm ${FIXTURES_SKIP_NOTE})`, () => {
    it('the session’s erase sends the account’s master password to a drive locked at level high, and keeps none in its context or outcome', async () => {
      const original = randomBytes(SIZE);
      const disk = loopWith(work, 'policy-master.img', original);
      try {
        const state = acceptPolicy({ erasure_policy: DEFAULT_ERASURE_POLICY, source: 'account', ata_master_passwords: { passwords: [FLEET], factory_defaults: false } });
        if (!state.ok) throw new Error(state.reason);
        // The drive refuses the password: what counts here is that it was offered, from the policy.
        const { run, calls } = fakeRunner({
          hdparm: [
            { match: `^-I ${escape(disk.device)}$`, stdout: derivedHdparmSecurity({ locked: true, level: 'high', masterRevision: 3 }) },
            { match: `--security-unlock .* ${escape(disk.device)}$`, stderr: 'SECURITY_UNLOCK: Input/output error\n', exit: 5 },
          ],
        });
        const drive: DriveJob = { device: disk.device, method: METHOD, preconditions: [], label: nistLabel(METHOD_INFO[METHOD].category), technique: METHOD_INFO[METHOD].technique };
        const ctx: SessionContext = { product: 'engine', drives: [drive], recordId: 'CW-20261128-040000', engineVersion: 'test', toolComponents: 'erasure-agent test', limits: DEFAULT_LIMITS };
        const executors = createExecutors(ctx, {
          client: createCloudClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 }),
          erase: { run, sleep: noSleep, sys: nodeSystemView(), now: () => new Date(), firmwareTiming: { pollIntervalMs: 1, maxWaitMs: 2000, commandTimeoutMs: 15_000 } },
          fingerprint: () => Promise.reject(new Error('not asked')),
          sleep: noSleep,
          jitterMs: () => 0,
          ...(state.masters ? { ataMasterPasswords: state.masters } : {}),
        });
        const event = await executors.erase({ kind: 'erase', index: 0, drive });
        expect(calls().filter((c) => c.includes('--security-unlock')).map((c) => c[4])).toEqual([FLEET]);
        expect(event).toMatchObject({ outcome: { ok: false, failureCode: 'locked', disposition: 'review' } });
        expect(JSON.stringify(event)).not.toContain(FLEET);
        expect(JSON.stringify(ctx)).not.toContain(FLEET);
        expect(readFileSync(disk.file).equals(original)).toBe(true);
      } finally {
        disk.cleanup();
      }
    });
  });
});
