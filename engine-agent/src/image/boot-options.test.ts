import { describe, expect, it } from 'vitest';
import { bootMethodPolicy, cmdlineWords, parseBootOptions } from './boot-options.js';

describe('boot options on the kernel command line', () => {
  it('defaults to the kiosk, all devices, no confirmation, and waiting', () => {
    expect(parseBootOptions('BOOT_IMAGE=/live/vmlinuz boot=live quiet')).toEqual({ mode: 'kiosk', devices: 'all', confirm: false, after: 'wait' });
  });

  it('reads a headless run over a list of devices that powers off', () => {
    const o = parseBootOptions('boot=live erasure.mode=headless erasure.devices=/dev/nvme0n1,/dev/sda erasure.confirm=yes erasure.after=poweroff');
    expect(o).toMatchObject({ mode: 'headless', devices: ['/dev/nvme0n1', '/dev/sda'], confirm: true, after: 'poweroff' });
  });

  it('confirms erasure only with the exact word yes', () => {
    for (const v of ['1', 'true', 'YES', 'y', '']) expect(parseBootOptions(`erasure.mode=headless erasure.confirm=${v}`).confirm).toBe(false);
  });

  it('falls to the kiosk on an unknown mode and waits on an unknown after', () => {
    expect(parseBootOptions('erasure.mode=nuke erasure.after=reboot')).toMatchObject({ mode: 'kiosk', after: 'wait' });
  });

  it('takes a gateway URL override, and ignores one that is not http(s)', () => {
    expect(parseBootOptions('erasure.gateway=https://gw.example.net:8443').gatewayUrl).toBe('https://gw.example.net:8443');
    expect(parseBootOptions('erasure.gateway=file:///etc/passwd').gatewayUrl).toBeUndefined();
  });

  it('uses the last of repeated options, as the personalized boot.cfg comes after the menu defaults', () => {
    expect(parseBootOptions('erasure.mode=kiosk erasure.mode=headless').mode).toBe('headless');
  });

  it('reads the station policy, and falls to confirm on anything but the two words', () => {
    expect(parseBootOptions('boot=live').stationPolicy).toBeUndefined();
    expect(parseBootOptions('erasure.station_policy=auto').stationPolicy).toBe('auto');
    expect(parseBootOptions('erasure.station_policy=confirm').stationPolicy).toBe('confirm');
    for (const v of ['AUTO', 'automatic', 'yes', '']) expect(parseBootOptions(`erasure.station_policy=${v}`).stationPolicy).toBe('confirm');
  });

  it('reads erasure.unfreeze, and falls to off on anything but auto', () => {
    expect(parseBootOptions('boot=live').unfreeze).toBeUndefined();
    expect(parseBootOptions('erasure.unfreeze=auto').unfreeze).toBe('auto');
    expect(parseBootOptions('erasure.unfreeze=off').unfreeze).toBe('off');
    expect(parseBootOptions('erasure.unfreeze=always').unfreeze).toBe('always');
    for (const v of ['AUTO', 'on', 'yes', '']) expect(parseBootOptions(`erasure.unfreeze=${v}`).unfreeze).toBe('off');
  });

  it('reads a limit on the drives erased at once, and erases all at once on anything but a positive whole number', () => {
    expect(parseBootOptions('erasure.parallel=2').parallel).toBe(2);
    for (const v of ['0', '-1', 'two', '1.5', '']) expect(parseBootOptions(`erasure.parallel=${v}`).parallel).toBeUndefined();
    expect(parseBootOptions('quiet').parallel).toBeUndefined();
  });

  it('offers the remote kiosk only on the word any or an IP address, with the pairing code given', () => {
    expect(parseBootOptions('boot=live').agentListen).toBeUndefined();
    expect(parseBootOptions('erasure.agent_listen=any').agentListen).toBe('any');
    expect(parseBootOptions('erasure.agent_listen=192.168.1.20').agentListen).toBe('192.168.1.20');
    for (const v of ['all', 'yes', '0.0.0.0.0', 'host.example', '']) expect(parseBootOptions(`erasure.agent_listen=${v}`).agentListen).toBeUndefined();
    expect(parseBootOptions('erasure.agent_secret=K7QM-2WXR-9TNB-4HJD').agentSecret).toBe('K7QM-2WXR-9TNB-4HJD');
  });

  it('keeps quoted words whole', () => {
    expect(cmdlineWords('a "b c" d=e')).toEqual(['a', 'b c', 'd=e']);
  });

  it('reads erasure.method and erasure.verify, a bad level falling to full (every sector read)', () => {
    const o = parseBootOptions('boot=live erasure.mode=headless erasure.method=dod-5220.22-m-3 erasure.verify=sample:10');
    expect(o).toMatchObject({ method: 'dod-5220.22-m-3', verify: { sample: 10 } });
    expect(parseBootOptions('erasure.verify=every-pass').verify).toBe('every-pass');
    expect(parseBootOptions('erasure.verify=sample:0').verify).toBe('full');
    expect(parseBootOptions('erasure.verify=some').verify).toBe('full');
    // An unknown method is kept as written: the planner refuses it, so nothing is erased.
    expect(parseBootOptions('erasure.method=made-up').method).toBe('made-up');
    expect(bootMethodPolicy(parseBootOptions('boot=live'))).toEqual({});
    expect(bootMethodPolicy(o)).toMatchObject({ methodId: 'dod-5220.22-m-3', erasure: { default_method: 'nist-800-88-purge', verification: { sample: 10 } } });
  });

  it('reads erasure.mode=validate, and erasure.validate=yes (only the exact word) for a headless run', () => {
    expect(parseBootOptions('boot=live erasure.mode=validate erasure.after=poweroff')).toMatchObject({ mode: 'validate', after: 'poweroff' });
    expect(parseBootOptions('erasure.mode=headless erasure.validate=yes').validate).toBe(true);
    for (const v of ['1', 'true', 'YES', '']) expect(parseBootOptions(`erasure.mode=headless erasure.validate=${v}`).validate).toBeUndefined();
  });

  it('reads a method per device in erasure.method, beside a bare method for the other drives', () => {
    expect(parseBootOptions('erasure.method=/dev/vda:dod-5220.22-m-3')).toMatchObject({ methods: { '/dev/vda': 'dod-5220.22-m-3' } });
    expect(parseBootOptions('erasure.method=/dev/vda:dod-5220.22-m-3').method).toBeUndefined();
    const o = parseBootOptions('erasure.method=gutmann,/dev/sdb:hmg-is5-enhanced,/dev/nvme0n1:nist-800-88-purge');
    expect(o).toMatchObject({ method: 'gutmann', methods: { '/dev/sdb': 'hmg-is5-enhanced', '/dev/nvme0n1': 'nist-800-88-purge' } });
    // Two bare methods stay one unknown id, which the planner refuses: nothing is erased.
    expect(parseBootOptions('erasure.method=gutmann,zeros').method).toBe('gutmann,zeros');
  });
});
