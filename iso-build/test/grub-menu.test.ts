import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBootOptions } from '../../engine-agent/src/image/boot-options.js';

const GRUB_CFG = readFileSync(new URL('../image/grub.cfg', import.meta.url), 'utf8');
const LIVE_ARGS = /set live_args="([^"]*)"/.exec(GRUB_CFG)?.[1] ?? '';

/** The menu's entries: title and kernel command line, with $live_args and $erasure_args as GRUB expands them. */
function entries(erasureArgs = ''): Array<{ title: string; cmdline: string }> {
  return [...GRUB_CFG.matchAll(/menuentry "([^"]+)" \{\n\s*linux \/live\/vmlinuz ([^\n]*)\n/g)].map((m) => ({
    title: m[1]!,
    cmdline: m[2]!.replace('$live_args', LIVE_ARGS).replace('$erasure_args', erasureArgs).replace(/\s+/g, ' ').trim(),
  }));
}
const entry = (title: RegExp, erasureArgs = '') => entries(erasureArgs).find((e) => title.test(e.title));

describe('the GRUB menu of the boot image', () => {
  it('offers the kiosk, headless report-only, headless erase-all, validate and copy-to-RAM, each with the live and personalized options', () => {
    expect(entries().map((e) => e.title)).toEqual([
      'Erasure',
      'Erasure - headless: fingerprint and report only',
      'Erasure - headless: ERASE ALL DRIVES, then power off',
      'Erasure - validate: read the drives picked for validation, then power off',
      'Erasure - copy to RAM (the boot stick can be removed)',
    ]);
    for (const e of entries('erasure.gateway=https://gw.example.net')) expect(e.cmdline).toMatch(/^boot=live .*console=ttyS0,115200n8 .*erasure\.gateway=https:\/\/gw\.example\.net/);
  });

  it('boots the validate entry into erasure.mode=validate, then power off', () => {
    expect(parseBootOptions(entry(/validate/)!.cmdline)).toMatchObject({ mode: 'validate', after: 'poweroff', confirm: false });
  });

  it('keeps the validate entry a read even on an image personalized to erase headless', () => {
    const personalized = 'erasure.mode=headless erasure.devices=all erasure.confirm=yes erasure.after=wait';
    expect(parseBootOptions(entry(/validate/, personalized)!.cmdline)).toMatchObject({ mode: 'validate', after: 'poweroff' });
    // The headless entries still take the personalized options last, as before.
    expect(parseBootOptions(entry(/report only/, personalized)!.cmdline)).toMatchObject({ mode: 'headless', confirm: true, after: 'wait' });
  });
});
