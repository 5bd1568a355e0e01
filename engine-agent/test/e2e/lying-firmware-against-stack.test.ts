import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRule } from '../support/fake-runner.js';
import { fixtureRoot, fixturesPresent, FIXTURES_SKIP_NOTE, workspaceDir } from '../support/fixtures.js';
import { loopSkipReason, makeWorkDir } from '../support/loop.js';
import { agentRunStack } from '../support/run-stack.js';

const MiB = 1024 * 1024;

/**
 * `erasure-agent run` over a loop device that the fake smartctl and nvme (replaying a Sabrent
 * Rocket 4 and a Samsung 980 PRO) present as an NVMe drive with crypto Format, so the plan is a
 * Purge by `nvme format --ses=2`. The fake nvme then answers success and erases nothing, as a
 * drive whose firmware lies; lsblk and the other probes find no rule and fail, as absent tools.
 */
describe.skipIf(Boolean(loopSkipReason) || !fixturesPresent)(`erasure-agent run against a real cloud: a drive whose firmware lies (${FIXTURES_SKIP_NOTE})`, () => {
  const work = loopSkipReason ? '' : makeWorkDir('lying-e2e-');
  const stack = agentRunStack(work, 'Lying Firmware Refurb');

  beforeAll(() => stack.start(), 180_000);
  afterAll(() => stack.stop());

  it('is not certified Purge: the firmware step fails on its test patterns and the drive is overwritten and certified Clear', () => {
    const bytes = randomBytes(8 * MiB);
    const disk = stack.disk('liar.img', bytes);
    const scenario: Record<string, FakeRule[]> = {
      smartctl: [{ match: `^--json -x ${disk.device}$`, fixture: 'smartctl/sabrent-rocket4-nvme-smartctl-a.json' }],
      nvme: [
        { match: `^id-ctrl ${disk.device} -o json$`, fixture: 'nvme/samsung-980pro-1tb-nvme-id-ctrl-json-sorted.json' },
        { match: `^format ${disk.device} --ses=2 --force$`, stdout: 'Success formatting namespace:1\n' },
      ],
    };
    const scenarioFile = join(work, 'scenario.json');
    writeFileSync(scenarioFile, JSON.stringify(scenario));
    const sut = spawnSync(process.execPath, [join(workspaceDir, 'bin/erasure-agent.js'), 'run', '--json', '--yes', '--device', disk.device], {
      env: {
        ...stack.agentEnv(),
        PATH: [join(workspaceDir, 'test', 'fake-bin'), process.env.PATH ?? ''].join(delimiter),
        FAKE_FIXTURE_DIR: fixtureRoot,
        FAKE_SCENARIO_FILE: scenarioFile,
      },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(sut.status, sut.stderr).toBe(0);
    const out = JSON.parse(sut.stdout) as { phase: string; drives: Array<{ method: string; erased: boolean; delivered: boolean; verification: string }> };
    expect(out.phase).toBe('done');
    expect(out.drives).toMatchObject([{ method: 'overwrite', erased: true, delivered: true }]);
    expect(readFileSync(disk.file).equals(Buffer.alloc(8 * MiB))).toBe(true);
    const rows = stack.cloudRows('SELECT wipe_method, technique, passes_completed, wipe_status, validation, certifiable, tool_components, verification_result FROM wipe_results');
    expect(rows).toHaveLength(1);
    const [row] = rows as [Record<string, unknown>];
    expect(row).toMatchObject({ wipe_method: 'NIST 800-88 R2 Clear', passes_completed: 1, wipe_status: 'completed', validation: 'approved', certifiable: 1 });
    expect(String(row.technique)).toBe('Overwrite, single pass with verification, after NVMe Format, Cryptographic Erase (SES=2) failed its check');
    expect(String(row.verification_result)).toMatch(/^Firmware erase failed: overwritten\. NVMe Format, Cryptographic Erase \(SES=2\) reported success .*256 of 256 test patterns written before the erase were still there after it/);
    expect(String(row.tool_components)).toContain(`nvme format ${disk.device} --ses=2 --force`);
    expect(String(row.tool_components)).toContain('direct-I/O write of every LBA');
  });
});
