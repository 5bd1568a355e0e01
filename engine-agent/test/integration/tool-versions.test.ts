import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createRunner } from '../../src/adapters/runner.js';
import { readToolComponents } from '../../src/adapters/tool-versions.js';
import { fakeRunner } from '../support/fake-runner.js';
import { workspaceDir } from '../support/fixtures.js';

// Issue 29 item 6. ../shared/fixtures/real holds no captured version output of these tools, so the
// fake binaries replay the formats their sources print (hdparm.c `-V`: "%s %s\n", progname,
// HDPARM_VERSION; nvme-cli 2.x `version`: "nvme version %s (git %s)" then "libnvme version %s (git
// %s)"; sg3_utils sg_sanitize.c `-V`: ME "version: %s\n" on stderr), with the versions Debian 12
// ships. The kernel is the real `uname -r` of this machine.
const HDPARM_V = 'hdparm v9.65\n';
const NVME_VERSION = 'nvme version 2.4 (git 2.4+debian)\nlibnvme version 1.3 (git 1.3)\n';
const SG_SANITIZE_V = 'sg_sanitize: version: 1.19 20220608\n';

const work = mkdtempSync(join(tmpdir(), 'tool-versions-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A boot medium with the build info the image build writes (iso-build assemble.ts). */
function medium(info: unknown): string {
  const dir = mkdtempSync(join(work, 'medium-'));
  mkdirSync(join(dir, 'erasure'));
  writeFileSync(join(dir, 'erasure', 'image.json'), JSON.stringify(info));
  return dir;
}
const readText = async (path: string) => {
  try {
    return execFileSync('cat', [path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
};

describe('tool_components names the image, the agent and the exact versions of the erase tools and the kernel', () => {
  it('reads each version through the runner from the tools on PATH', async () => {
    const { run, calls } = fakeRunner({
      hdparm: [{ match: '^-V$', stdout: HDPARM_V }],
      nvme: [{ match: '^version$', stdout: NVME_VERSION }],
      sg_sanitize: [{ match: '^-V$', stderr: SG_SANITIZE_V }],
      'dpkg-query': [{ match: '^-W -f \\$\\{Version\\} mmc-utils$', stdout: '0+git20250204.ab9eea5a-1' }],
    });
    const mediumDir = medium({ version: '1.4.2', built_at: '2026-11-20T08:00:00.000Z', base_key: 'b', project_key: 'p', suite: 'bookworm' });
    const sut = await readToolComponents({ run, readText, agentVersion: '1.4.2', mediumDir });
    expect(sut).toBe(
      `erasure-agent 1.4.2; image erasure 1.4.2 (built 2026-11-20); hdparm v9.65; nvme-cli 2.4 (libnvme 1.3); sg3_utils (sg_sanitize 1.19 20220608); mmc-utils 0+git20250204.ab9eea5a-1; kernel ${release()}`,
    );
    expect(calls()).toEqual(expect.arrayContaining([['hdparm', '-V'], ['nvme', 'version'], ['sg_sanitize', '-V'], ['dpkg-query', '-W', '-f', '${Version}', 'mmc-utils']]));
  });

  it('names a tool that is not installed as missing, and an image without build info as not found, never a guessed version', async () => {
    // A PATH with node, the fake hdparm and uname only: nvme and sg_sanitize are not there.
    const bin = mkdtempSync(join(work, 'bin-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    for (const f of ['hdparm', 'fake-tool.mjs']) copyFileSync(join(workspaceDir, 'test', 'fake-bin', f), join(bin, f));
    execFileSync('chmod', ['+x', join(bin, 'hdparm')]);
    symlinkSync('/usr/bin/uname', join(bin, 'uname'));
    const scenario = join(work, 'scenario.json');
    writeFileSync(scenario, JSON.stringify({ hdparm: [{ match: '^-V$', stdout: 'hdparm: unexpected\n' }] }));
    const run = createRunner({ env: { PATH: bin, FAKE_SCENARIO_FILE: scenario } });
    const sut = await readToolComponents({ run, readText, agentVersion: '1.4.2', mediumDir: join(work, 'no-medium') });
    expect(sut).toBe(`erasure-agent 1.4.2; image: not found (no build info on the boot medium); hdparm: version not readable; nvme-cli: missing; sg3_utils: missing; mmc-utils: missing; kernel ${release()}`);
  });
});
