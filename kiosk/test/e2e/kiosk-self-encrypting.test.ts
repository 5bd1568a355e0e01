import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  const reverted = join(work, 'reverted');
  const GOOD = 'QX7R2KD9M4T8W1ZP6B3N5C0V9F2H7J4L';
  const WRONG = 'QX7R2KD9M4T8W1ZP6B3N5C0V9F2H7J4X';
  const bodies: string[] = [];

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
      nvme: [
        { match: '^sed discover -v /dev/nvme0n1$', stdout: readFileSync(join(SED, 'nvme-sed-discover-locked.DERIVED.txt'), 'utf8'), untilFile: reverted },
        { match: '^sed discover -v /dev/nvme0n1$', stdout: readFileSync(join(SED, 'nvme-sed-discover-not-enabled.DERIVED.txt'), 'utf8') },
      ],
      'sedutil-cli': [{ match: '^--query /dev/sda$', stdout: readFileSync(join(SED, 'sedutil-query-crucial-mx200-sata-opal2-not-enabled.txt'), 'utf8') }],
    };
    writeFileSync(join(work, 'scenario.json'), JSON.stringify(scenario));
    // nvme sed revert --psid as nvme-cli 2.13 runs it: two y/n questions, then the PSID, all read
    // from stdin (getpass falls back to it without a terminal). Only the label's PSID, given as the
    // third line, opens the drive; any other gets nvme-cli's own error. Everything else: the fake.
    writeFileSync(
      join(work, 'nvme'),
      `#!/bin/sh\nif [ "$1" = sed ] && [ "$2" = revert ]; then\n  input=$(cat)\n  printf '%s' "$(cat '${join(SED, 'nvme-sed-revert-psid-prompts.txt')}')"\n  if [ "$(printf '%s\\n' "$input" | sed -n 1,2p | tr -d '\\n')" = yy ] && [ "$(printf '%s\\n' "$input" | sed -n 3p)" = '${GOOD}' ]; then touch '${reverted}'; exit 0; fi\n  cat '${join(SED, 'nvme-sed-revert-psid-wrong.stderr.txt')}' >&2\n  exit 1\nfi\nexec '${join(FAKE_BIN, 'nvme')}' "$@"\n`,
    );
    chmodSync(join(work, 'nvme'), 0o755);
    ({ agent, page } = await session.startWithAgent({
      quota: 5,
      real: { env: { PATH: [work, FAKE_BIN, process.env.PATH ?? ''].join(delimiter), FAKE_SCENARIO_FILE: join(work, 'scenario.json'), FAKE_FIXTURE_DIR: FIXTURES, ERASURE_UNFREEZE: 'off' } },
    }));
  }, 180_000);

  beforeAll(() => {
    page.on('request', (r) => bodies.push(`${r.method()} ${r.url()} ${r.postData() ?? ''}`));
  });

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

  it('PSID revert at the kiosk: a wrong PSID gets the tool\'s own error, the label\'s PSID unlocks the drive, and the PSID is nowhere but in the request to the agent', async () => {
    const row = page.locator('li.drive', { hasText: 'MZVPV512HDGL' });
    await row.locator('[data-testid="psid-open"]').click();
    const input = row.locator('[data-testid="psid-input"]');
    await input.fill('qx7r-2kd9-m4t8');
    await expect(row.locator('[data-testid="psid-count"]').textContent()).resolves.toBe('12 of 32');
    await expect(row.locator('[data-testid="psid-submit"]').isDisabled()).resolves.toBe(true);
    await shoot(page, '31-psid-dialog');

    await input.fill(WRONG);
    await row.locator('[data-testid="psid-submit"]').click();
    await expect(row.locator('[data-testid="psid-error"]').textContent()).resolves.toBe('the drive refused the PSID (Error: incorrect password): check the 32 characters on the label and type them again');
    await expect(input.inputValue()).resolves.toBe('');
    // The error is brought into view on the smallest kiosk screen, where it falls below the fold.
    const inView = await row.locator('[data-testid="psid-error"]').evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    await shoot(page, '32-psid-wrong');

    // A barcode scanner or a typist may give it in groups with dashes: the kiosk sends the 32 characters.
    await input.fill(`${GOOD.slice(0, 8)}-${GOOD.slice(8, 16)}-${GOOD.slice(16, 24)}-${GOOD.slice(24)}`);
    await row.locator('[data-testid="psid-submit"]').click();
    await expect.poll(async () => (await agentState(agent)).drives.find((d: { device: string }) => d.device === '/dev/nvme0n1')?.self_encryption, { timeout: 60_000 }).toEqual({ words: 'self-encrypting (Opal 2, locking off)', locked: false });
    const state = await agentState(agent);
    expect(state.psid_revert).toEqual({ device: '/dev/nvme0n1', ok: true, words: 'PSID revert: the drive discarded its media encryption key (a cryptographic erase) and is now self-encrypting (Opal 2, locking off)' });
    expect(state.drives.find((d: { device: string }) => d.device === '/dev/nvme0n1')?.plan).toMatchObject({ ok: true });
    await page.locator('li.drive', { hasText: 'MZVPV512HDGL' }).locator('[data-testid="psid-outcome"]').waitFor();
    await shoot(page, '33-psid-reverted');

    // Never logged, never in the state, never stored on disk, never in a request other than the one intent to the agent.
    for (const psid of [GOOD, WRONG]) {
      expect(agent.output()).not.toContain(psid);
      expect(JSON.stringify(state)).not.toContain(psid);
      expect(filesUnder(agent.dataDir).filter((f) => readFileSync(f).includes(psid))).toEqual([]);
      const carrying = bodies.filter((b) => b.includes(psid));
      expect(carrying).toHaveLength(1);
      expect(carrying[0]).toMatch(new RegExp(`^POST ${agent.url}/api/intents \\{"type":"psid_revert","device":"/dev/nvme0n1","psid":"${psid}"\\}$`));
    }
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).not.toMatch(/QX7R2KD9/);
  });
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
