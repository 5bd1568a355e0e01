import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Flags every browser test starts Debian's Chromium with: headless as root, and without the
 * background services whose connections this machine's closed network refuses.
 */
export const HEADLESS_CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

type ContextOptions = NonNullable<Parameters<typeof chromium.launchPersistentContext>[1]>;

/** Debian's Chromium in a fresh profile that `close()` removes; `options` add flags and context settings. */
export async function launchChromium(
  options: Omit<ContextOptions, 'args' | 'executablePath' | 'headless'> & { extraArgs?: readonly string[] } = {},
): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const { extraArgs = [], ...contextOptions } = options;
  const profile = mkdtempSync(join(tmpdir(), 'erasure-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...contextOptions,
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...HEADLESS_CHROMIUM_ARGS, ...extraArgs],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
