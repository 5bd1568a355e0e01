import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentState, kioskSession, shoot, type Agent } from './kiosk-stack.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = join(REPO, '..', 'shared', 'fixtures', 'real');
const FAKE_BIN = join(REPO, 'engine-agent', 'test', 'fake-bin');
const present = existsSync(FIXTURES);
if (!present) console.warn(`[fixtures] ${FIXTURES} is absent: the kiosk's freeze lock removal test is skipped`);

/**
 * Freeze lock removal as the technician sees it: the real agent (not simulated) on a machine
 * whose tools are fakes replaying real captures, with a SATA SSD the BIOS froze. Before the
 * machine sleeps the kiosk says the screen goes dark; after the RTC wake-up the drive is probed
 * again and offered its firmware erase. rtcwake is a fake that holds "asleep" until the test
 * wakes it, so the notice is on screen for as long as the test looks at it.
 */
describe.skipIf(!present)('kiosk: unfreezing frozen drives at start-up', { timeout: 420_000 }, () => {
  const session = kioskSession();
  let agent: Agent;
  let page: Page;
  const work = mkdtempSync(join(tmpdir(), 'kiosk-unfreeze-'));
  const wake = join(work, 'wake');
  const rtcCalls = join(work, 'rtcwake.calls');

  beforeAll(async () => {
    // The real Tesla capture (frozen, SANITIZE + BLOCK_ERASE_EXT) until the machine slept (the fake
    // rtcwake ran), then with only its frozen line changed, as a resume leaves it. Not "the first
    // identify": the fingerprint probes the drives at the same time as the start-up check does.
    const frozen = readFileSync(join(FIXTURES, 'hdparm/tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt'), 'utf8');
    const scenario = {
      lsblk: [{ match: '^-J -b -O', fixture: 'lsblk/laptop-micron-sata-samsung-nvme-lvm-loops-lsblk-J-b-O.json' }],
      hdparm: [
        { match: '^-I /dev/sda$', fixture: 'hdparm/tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt', untilFile: rtcCalls },
        { match: '^-I /dev/sda$', stdout: frozen.replace(/^(\s+)frozen$/m, '        not     frozen') },
        { match: '^-N /dev/sda$', fixture: 'hdparm/forensicswiki-hdparm-N-hpa-disabled.txt' },
        { match: '^--dco-identify /dev/sda$', fixture: 'hdparm/forensicswiki-hdparm-dco-identify.txt' },
        { match: '^--sanitize-status', stdout: '\n/dev/sda:\nIssuing SANITIZE_STATUS command\nSanitize status:\n    State:    SD0 Sanitize Idle\n' },
      ],
    };
    writeFileSync(join(work, 'scenario.json'), JSON.stringify(scenario));
    // rtcwake "sleeps" until the test creates `wake`, then answers as util-linux 2.38 does.
    writeFileSync(
      join(work, 'rtcwake'),
      `#!/bin/sh\necho "$*" >> '${rtcCalls}'\nwhile [ ! -e '${wake}' ]; do sleep 0.1; done\necho 'rtcwake: wakeup from "mem" using /dev/rtc0 at Thu Nov 26 05:40:05 2026'\n`,
    );
    chmodSync(join(work, 'rtcwake'), 0o755);
    ({ agent, page } = await session.startWithAgent({
      quota: 5,
      real: { env: { PATH: [work, FAKE_BIN, process.env.PATH ?? ''].join(delimiter), FAKE_SCENARIO_FILE: join(work, 'scenario.json'), FAKE_FIXTURE_DIR: FIXTURES } },
    }));
  }, 180_000);

  afterAll(async () => {
    writeFileSync(wake, '');
    await session.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('says the screen goes dark before the machine sleeps, then offers the unfrozen drive its firmware erase', async () => {
    await page.goto(agent.url);
    // Generous: the agent probes every drive through the fake tools before it suspends, slow on a loaded machine.
    await page.waitForSelector('[data-testid="unfreeze-notice"]', { timeout: 180_000 });
    await expect(page.locator('[data-testid="unfreeze-notice"]').textContent()).resolves.toMatch(/The screen goes dark for a few seconds/);
    expect(await agentState(agent)).toMatchObject({ locked: true, boot: { phase: 'unfreeze' } });
    await shoot(page, '20-unfreeze-notice');

    writeFileSync(wake, '');
    await page.waitForSelector('[data-screen="machine"]', { timeout: 180_000 });
    expect(readFileSync(rtcCalls, 'utf8')).toBe('-m mem -s 5\n');
    const state = await agentState(agent);
    expect(state.drives.find((d: { device: string }) => d.device === '/dev/sda')?.plan).toMatchObject({ ok: true, method: 'ata-sanitize-block', category: 'Purge' });
    expect(state.unfreeze).toMatchObject({ mode: 'auto', source: 'default', this_boot: expect.stringMatching(/slept and woke by itself/) });

    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    await page.locator('[data-testid="unfreeze-setting"] summary').click();
    await shoot(page, '21-unfreeze-setting');
    await page.locator('[data-testid="unfreeze-setting"] button', { hasText: 'Do not unfreeze' }).click();
    await page.waitForSelector('[data-testid="unfreeze-setting"] summary:has-text("not unfrozen")');
    expect((await agentState(agent)).unfreeze).toMatchObject({ mode: 'off', source: 'kiosk setting' });
    expect(JSON.parse(readFileSync(join(agent.dataDir, 'unfreeze-setting.json'), 'utf8'))).toEqual({ mode: 'off' });
  });
});
