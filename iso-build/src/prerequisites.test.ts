import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { missingMessage, missingPrerequisites, parsePrerequisites } from './prerequisites.js';

const LIST = fileURLToPath(new URL('../prerequisites.txt', import.meta.url));

describe('image build prerequisites', () => {
  it('the list names grub-mkrescue, mmdebstrap and both GRUB platforms with their Debian packages', () => {
    const list = parsePrerequisites(readFileSync(LIST, 'utf8'));
    expect(list).toContainEqual({ kind: 'command', name: 'grub-mkrescue', debianPackage: 'grub-common' });
    expect(list).toContainEqual({ kind: 'command', name: 'mmdebstrap', debianPackage: 'mmdebstrap' });
    expect(list.map((p) => p.debianPackage)).toEqual(expect.arrayContaining(['grub-pc-bin', 'grub-efi-amd64-bin', 'squashfs-tools', 'xorriso', 'mtools']));
  });

  it('a malformed line is refused with its line number', () => {
    expect(() => parsePrerequisites('# tools\ncommand xorriso\n')).toThrow(/line 2/);
  });

  it('a command is missing when no folder on PATH has it, present when one does', () => {
    const bin = mkdtempSync(join(tmpdir(), 'prereq-bin-'));
    const list = parsePrerequisites('command grub-mkrescue grub-common\ncommand xorriso xorriso\n');
    writeFileSync(join(bin, 'xorriso'), '#!/bin/sh\n');
    chmodSync(join(bin, 'xorriso'), 0o755);
    expect(missingPrerequisites(list, { PATH: `/nonexistent:${bin}` }).map((p) => p.name)).toEqual(['grub-mkrescue']);
  });

  it('a path is missing when it does not exist', () => {
    const list = parsePrerequisites('path /usr/lib/grub/i386-pc grub-pc-bin\n');
    expect(missingPrerequisites(list, { PATH: '' }, () => false)).toHaveLength(1);
    expect(missingPrerequisites(list, { PATH: '' }, () => true)).toHaveLength(0);
  });

  it('the message names each missing tool, its package, and the install command', () => {
    const message = missingMessage(parsePrerequisites('command grub-mkrescue grub-common\npath /usr/lib/grub/x86_64-efi grub-efi-amd64-bin\n'));
    expect(message).toContain('grub-mkrescue (command) from the Debian package grub-common');
    expect(message).toContain('npm run iso:deps');
    expect(message).toContain('apt-get install grub-common grub-efi-amd64-bin');
  });
});
