import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import si from 'systeminformation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEnv } from '../../src/agent.js';
import { createRunner } from '../../src/adapters/runner.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { loadConfig } from '../../src/config.js';
import { parseBootOptions } from '../../src/image/boot-options.js';
import { runHeadless } from '../../src/image/headless.js';
import { simulatedDir, simulatedDrives } from '../../src/simulate/profile.js';
import { DEFAULT_LIMITS } from '../../src/session/types.js';
import { makeWorkDir, removeDir } from '../support/loop.js';
import { startCloudStack, type CloudStack } from '../support/stack.js';

const MiB = 1024 * 1024;

/**
 * The headless run (erasure.mode=headless) against the real cloud and gateway, on the simulated
 * machine's file-backed drives: it erases under the cloud's policy for its token, as the kiosk and
 * the station do (issue 29 item 2), and a method outside it writes no byte.
 */
describe('headless run under the cloud erasure policy', () => {
  const work = makeWorkDir('headless-policy-');
  let stack: CloudStack;
  beforeAll(async () => {
    stack = await startCloudStack(work);
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
    removeDir(work);
  });

  /** A fresh simulated machine whose token carries `policy` (a customer's contract), and its 32 MiB drive. */
  function machine(name: string, policy: readonly string[], gatewayUrl?: string) {
    const dir = mkdtempSync(join(work, `${name}-`));
    const tokenFile = join(dir, 'token');
    stack.mintToken(tokenFile, { account: `Headless ${name}`, quota: 10, args: policy });
    const env: AgentEnv = {
      config: loadConfig({ ERASURE_GATEWAY_URL: gatewayUrl ?? stack.gatewayUrl, ERASURE_DEVICE_TOKEN_FILE: tokenFile, DATA_DIR: join(dir, 'agent') }, { simulate: true }),
      run: createRunner(),
      sys: nodeSystemView(),
      si,
      now: () => new Date(),
      sleep: async () => undefined,
      version: '0.1.0',
      limits: { ...DEFAULT_LIMITS, healthDelayMs: 0, retryBaseMs: 0, retryCapMs: 0, certificateLookupDelaysMs: [] },
    };
    // Creates the drive files (the customer's data) as the first listing would.
    simulatedDrives(env.config.DATA_DIR);
    const drive = join(simulatedDir(env.config.DATA_DIR), 'sim-hdd-1.img');
    const before = readFileSync(drive);
    const headless = async (args: string) => {
      const lines: string[] = [];
      const code = await runHeadless(env, parseBootOptions(`erasure.mode=headless erasure.confirm=yes erasure.devices=${drive} ${args}`), (l) => lines.push(l));
      return { code, lines, after: readFileSync(drive) };
    };
    return { headless, before, serial: 'SIM0000000002', drive };
  }

  const contract = ['--erasure-method', 'zeros', '--verification', 'sample:10', '--allowed-methods', 'zeros,dod-5220.22-m-3'];
  /** The wipe results the cloud holds for a drive of one test's account. */
  const wipeMethods = (serial: string, account: string) => {
    const db = new Database(stack.cloudDb, { readonly: true });
    try {
      return db.prepare('SELECT w.wipe_method AS m, w.verification_result AS v FROM wipe_results w JOIN accounts a ON a.id = w.account_id WHERE w.drive_serial = ? AND a.name = ?').all(serial, account) as Array<{ m: string; v: string }>;
    } finally {
      db.close();
    }
  };

  it("erases with the policy's default method and level when no erasure.method= is given", async () => {
    const m = machine('default', contract);
    const r = await m.headless('');
    expect(r.code, r.lines.join('\n')).toBe(0);
    expect(r.lines).toContain("erasure policy: this device token's contract; method Zeros (1 pass) (its default), verification sample:10");
    expect(r.after.equals(Buffer.alloc(32 * MiB)), r.lines.join('\n')).toBe(true);
    const rows = wipeMethods(m.serial, 'Headless default');
    expect(rows).toHaveLength(1);
    expect(String(rows[0]?.v)).toMatch(/^10% sampled verification: /);
  }, 120_000);

  it('erases with an erasure.method= the policy allows', async () => {
    const m = machine('allowed', contract);
    const r = await m.headless('erasure.method=dod-5220.22-m-3');
    expect(r.code, r.lines.join('\n')).toBe(0);
    expect(r.lines).toContain("erasure policy: this device token's contract; method DoD 5220.22-M (3 passes) (erasure.method=), verification sample:10");
    // The last of DoD's three passes is random: neither the customer's data nor zeros is left.
    expect(r.after.equals(m.before)).toBe(false);
    expect(r.after.equals(Buffer.alloc(32 * MiB))).toBe(false);
    expect(wipeMethods(m.serial, 'Headless allowed').map((row) => row.m)).toEqual(['DoD 5220.22-M (3 passes)']);
  }, 120_000);

  it('refuses an erasure.method= outside the policy with a clear message, and writes no byte', async () => {
    const m = machine('refused', contract);
    const r = await m.headless('erasure.method=gutmann');
    expect(r.code).toBe(2);
    expect(r.lines).toContain(
      "refused: erasure.method=gutmann refused, nothing is erased: Gutmann (35 passes) is not allowed by this device token's contract; allowed: Zeros (1 pass), DoD 5220.22-M (3 passes)",
    );
    expect(r.after.equals(m.before)).toBe(true);
    expect(wipeMethods(m.serial, 'Headless refused')).toEqual([]);
  }, 120_000);

  it("refuses one drive's own erasure.method=<device>:<id> outside the policy as the run's method is: whole run, no byte written", async () => {
    const m = machine('own-refused', contract);
    const r = await m.headless(`erasure.method=${m.drive}:gutmann`);
    expect(r.code).toBe(2);
    expect(r.lines).toContainEqual(expect.stringMatching(/^refused: erasure\.method=.*:gutmann refused, nothing is erased: Gutmann \(35 passes\) is not allowed by this device token's contract/));
    expect(r.after.equals(m.before)).toBe(true);
  }, 120_000);

  it('refuses an erasure.verify= that reads back less than the policy sets, and writes no byte', async () => {
    const m = machine('weaker', ['--erasure-method', 'zeros', '--verification', 'full', '--allowed-methods', 'zeros']);
    const r = await m.headless('erasure.verify=sample:1');
    expect(r.code).toBe(2);
    expect(r.lines).toContainEqual(expect.stringMatching(/^refused: erasure\.verify=sample:1 refused, nothing is erased: this device token's contract sets full/));
    expect(r.after.equals(m.before)).toBe(true);
  }, 120_000);

  it('erases nothing when the policy cannot be read, and says why', async () => {
    // No gateway answers: no policy, so nothing is erased (fail closed), as a refused check-in.
    const m = machine('unreadable', contract, 'http://127.0.0.1:9');
    const r = await m.headless('erasure.method=zeros');
    expect(r.code).toBe(2);
    expect(r.lines).toContainEqual(expect.stringMatching(/^refused: nothing is erased: the erasure policy could not be read \(gateway unreachable/));
    expect(r.lines.some((l) => /^(start|result) /.test(l))).toBe(false);
    expect(r.after.equals(m.before)).toBe(true);
  }, 120_000);
});
