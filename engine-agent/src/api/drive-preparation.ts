import type { AgentState } from '@erasure/shared';
import { listDrives, type AgentEnv } from '../agent.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import { describeUnfreeze, prepareDrives } from '../boot-prep/prepare-drives.js';
import { readUnfreezeSetting, saveUnfreezeSetting } from '../adapters/unfreeze-setting.js';

/** How long the kiosk shows "the screen goes dark for a few seconds" before the machine sleeps. */
export const SUSPEND_NOTICE_MS = 3000;

/** The freeze lock removal setting and what it did this boot, as the kiosk shows it. */
export type UnfreezeView = NonNullable<AgentState['unfreeze']>;

/**
 * The drives at boot: prepared once by this process (a sanitize left running or failed said,
 * frozen drives unfrozen by one suspend and resume per boot), listed plainly after that. The
 * kiosk shows the `unfreeze` phase before the screen goes dark.
 */
export class DrivePreparation {
  /** The boot's drive preparation ran (once per process; once per boot is the boot state's). */
  private prepared = false;
  /** The machine is about to sleep for the freeze lock removal. */
  private sleeping = false;
  /** The freeze lock removal setting and what it did this boot (absent until the drives were prepared). */
  private setting: UnfreezeView | undefined;

  constructor(
    private readonly env: AgentEnv,
    private readonly hooks: { changed(): void; writing(): boolean },
  ) {}

  get suspending(): boolean {
    return this.sleeping;
  }

  get unfreeze(): UnfreezeView | undefined {
    return this.setting;
  }

  async drives(): Promise<DiscoveredDrive[]> {
    if (this.prepared || this.env.config.ERASURE_SIMULATE) return listDrives(this.env);
    this.prepared = true;
    const say = (line: string) => process.stdout.write(`erasure-agent: ${line}\n`);
    const setting = await readUnfreezeSetting(this.env.config.DATA_DIR, this.env.config.ERASURE_UNFREEZE);
    this.setting = { mode: setting.mode === 'off' ? 'off' : 'auto', source: setting.source };
    const { drives, unfreeze } = await prepareDrives({
      run: this.env.run,
      sys: this.env.sys,
      now: this.env.now,
      dataDir: this.env.config.DATA_DIR,
      unfreeze: setting,
      list: (policy) => listDrives(this.env, policy),
      say,
      beforeSuspend: async () => {
        this.sleeping = true;
        this.hooks.changed();
        // The kiosk needs a moment to show what is about to happen before the screen goes dark.
        await this.env.sleep(SUSPEND_NOTICE_MS);
      },
      writing: () => this.hooks.writing(),
    }).finally(() => {
      this.sleeping = false;
    });
    this.setting = { ...this.setting, this_boot: describeUnfreeze(unfreeze) };
    return drives;
  }

  /** The kiosk's setting, saved for the next boots: this boot's removal ran (or not) before the checks. */
  async setMode(mode: UnfreezeView['mode']): Promise<{ ok: true } | { ok: false; reason: string }> {
    if (!this.setting) return { ok: false, reason: 'freeze lock removal does not apply here (simulated machine)' };
    await saveUnfreezeSetting(this.env.config.DATA_DIR, mode);
    this.setting = { ...this.setting, mode, source: 'kiosk setting' };
    return { ok: true };
  }
}
