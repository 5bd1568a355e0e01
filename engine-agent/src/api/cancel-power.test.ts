import type { DriveProgress } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import { cancelView, FIRMWARE_CANNOT_STOP, powerCommand } from './cancel-power.js';

const at = (device: string, stage: DriveProgress['stage'], extra: Partial<DriveProgress> = {}): DriveProgress => ({ device, stage, pass: stage === 'write' ? 1 : 0, bytes_done: 0, bytes_total: 100, ...extra });
const none = () => false;

describe('cancelView', () => {
  it('allows a cancel of a drive waiting to start, preparing, writing or reading back an overwrite', () => {
    const progress = { b: at('b', 'prepare'), c: at('c', 'write'), d: at('d', 'verify') };
    expect(cancelView(progress, ['a', 'b', 'c', 'd'], new Set(), none)).toEqual({ a: { can_cancel: true }, b: { can_cancel: true }, c: { can_cancel: true }, d: { can_cancel: true } });
  });

  it('a firmware erase that cannot be stopped says so instead of allowing a cancel', () => {
    const progress = { a: at('a', 'firmware'), b: at('b', 'verify') };
    expect(cancelView(progress, ['a', 'b'], new Set(), (d) => d === 'b')).toEqual({ a: { can_cancel: false, note: FIRMWARE_CANNOT_STOP }, b: { can_cancel: false, note: FIRMWARE_CANNOT_STOP } });
  });

  it('a firmware drive still preparing can be cancelled (its drive command is not out yet)', () => {
    expect(cancelView({ a: at('a', 'prepare') }, ['a'], new Set(), () => true)).toEqual({ a: { can_cancel: true } });
  });

  it('a finished drive has nothing to cancel, a cancelled one is stopping', () => {
    const progress = { a: at('a', 'verify', { outcome: 'erased' }), b: at('b', 'write') };
    expect(cancelView(progress, ['a', 'b'], new Set(['b']), none)).toEqual({ a: { can_cancel: false }, b: { can_cancel: false, stopping: true } });
  });
});

describe('powerCommand', () => {
  it('shuts down and restarts through systemctl without waiting for the jobs', () => {
    expect(powerCommand('poweroff')).toEqual({ tool: 'systemctl', args: ['poweroff', '--no-block'] });
    expect(powerCommand('reboot')).toEqual({ tool: 'systemctl', args: ['reboot', '--no-block'] });
  });
});
