import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentState, kioskSession, shoot, type Agent } from './kiosk-stack.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = join(REPO, '..', 'shared', 'fixtures', 'real');
const SED = join(REPO, 'engine-agent', 'test', 'fixtures', 'sed');
const FAKE_BIN = join(REPO, 'engine-agent', 'test', 'fake-bin');
const present = existsSync(FIXTURES);
if (!present) console.warn(`[fixtures] ${FIXTURES} is absent: the kiosk's self-encrypting drive test is skipped`);

/**
 * Self-encrypting drives as the technician sees them: the real agent (not simulated) on a laptop
 * whose tools are fakes replaying captures: its NVMe SSD answers `nvme sed discover` as a locked
 * Opal 2 drive, its SATA SSD answers `sedutil-cli --query` as the real Crucial MX200 (Opal 2,
 * locking never set up).
 */
describe.skipIf(!present)('kiosk: self-encrypting drives on the drive row', { timeout: 420_000 }, () => {
  const session = kioskSession();
  let agent: Agent;
  let page: Page;
  const work = mkdtempSync(join(tmpdir(), 'kiosk-sed-'));

  beforeAll(async () => {
    const identify = readFileSync(join(FIXTURES, 'hdparm/tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt'), 'utf8').replace(/^(\s+)frozen$/m, '        not     frozen');
    const scenario = {
      lsblk: [{ match: '^-J -b -O', fixture: 'lsblk/laptop-micron-sata-samsung-nvme-lvm-loops-lsblk-J-b-O.json' }],
      hdparm: [
        { match: '^-I /dev/sda$', stdout: identify },
        { match: '^-N /dev/sda$', fixture: 'hdparm/forensicswiki-hdparm-N-hpa-disabled.txt' },
        { match: '^--dco-identify /dev/sda$', fixture: 'hdparm/forensicswiki-hdparm-dco-identify.txt' },
        { match: '^--sanitize-status', stdout: '\n/dev/sda:\nIssuing SANITIZE_STATUS command\nSanitize status:\n    State:    SD0 Sanitize Idle\n' },
      ],
      nvme: [{ match: '^sed discover -v /dev/nvme0n1$', stdout: readFileSync(join(SED, 'nvme-sed-discover-locked.DERIVED.txt'), 'utf8') }],
      'sedutil-cli': [{ match: '^--query /dev/sda$', stdout: readFileSync(join(SED, 'sedutil-query-crucial-mx200-sata-opal2-not-enabled.txt'), 'utf8') }],
    };
    writeFileSync(join(work, 'scenario.json'), JSON.stringify(scenario));
    ({ agent, page } = await session.startWithAgent({
      quota: 5,
      real: { env: { PATH: [FAKE_BIN, process.env.PATH ?? ''].join(delimiter), FAKE_SCENARIO_FILE: join(work, 'scenario.json'), FAKE_FIXTURE_DIR: FIXTURES, ERASURE_UNFREEZE: 'off' } },
    }));
  }, 180_000);

  afterAll(async () => {
    await session.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows "self-encrypting (Opal 2, locked)" on the locked drive\'s row, with why it cannot be erased, and the unlocked one as erasable', async () => {
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="machine"]', { timeout: 180_000 });
    const state = await agentState(agent);
    const nvme = state.drives.find((d: { device: string }) => d.device === '/dev/nvme0n1');
    expect(nvme).toMatchObject({ self_encryption: { words: 'self-encrypting (Opal 2, locked)', locked: true }, plan: { ok: false, reason: expect.stringMatching(/PSID revert/) } });
    expect(state.drives.find((d: { device: string }) => d.device === '/dev/sda')).toMatchObject({ self_encryption: { words: 'self-encrypting (Opal 2, locking off)', locked: false }, plan: { ok: true } });

    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    const locked = page.locator('li.drive', { has: page.locator('[data-testid="self-encryption"].locked') });
    await expect(locked.locator('[data-testid="self-encryption"]').textContent()).resolves.toBe('🔒 self-encrypting (Opal 2, locked)');
    await expect(locked.locator('.error').textContent()).resolves.toMatch(/^Cannot be erased: the drive is self-encrypting \(Opal 2, locked\)/);
    await expect(locked.locator('input[type="checkbox"]').isDisabled()).resolves.toBe(true);
    await shoot(page, '30-self-encrypting-drive-rows');
  });
});
