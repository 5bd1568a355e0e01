import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, copyFileSync, existsSync, readFileSync, renameSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A drive the VM sees, backed by a raw file on the host. */
export interface VmDrive {
  /** `sd-card`: an SD card in an SDHCI slot (sdhci-pci); its image's size must be a power of 2 (QEMU's rule). */
  readonly kind: 'nvme' | 'sata' | 'scsi' | 'virtio' | 'usb-stick' | 'cdrom' | 'megasas' | 'sd-card';
  readonly file: string;
  /** `megasas`: the controller exposes the disk directly (`use_jbod=on`), else only as its virtual disk. */
  readonly jbod?: boolean;
  readonly serial?: string;
  /**
   * Caps the drive's reads and writes together (`throttling.bps-total`), so an erase lasts at
   * least size / rate whatever the accelerator, as a real disk's speed would.
   */
  readonly bytesPerSecond?: number;
  /** Boots from this one. */
  readonly boot?: boolean;
}

export interface VmOptions {
  readonly name: string;
  readonly workDir: string;
  readonly firmware: 'uefi' | 'bios';
  readonly drives: readonly VmDrive[];
  /** The VM's own DMI identity (`-smbios type=1`). */
  readonly smbios: { manufacturer: string; product: string; serial: string; uuid: string };
  /** Host loopback port the guest reaches as http://10.0.2.100:8787 (the gateway). */
  readonly gatewayPort: number;
  /** Host loopback port forwarded to the guest's 7071 (the proxy to the agent that erasure.agent_listen=any starts). */
  readonly agentHostPort?: number;
  readonly memoryMiB?: number;
  /** Offer S3 (suspend to RAM) to the guest: q35's ICH9 hides it unless `disable_s3=0`. */
  readonly s3?: boolean;
}

/**
 * KVM when this machine lets us use it, else TCG (about ten times slower: tests scale their
 * timeouts). A machine that is itself a VM (the `hypervisor` CPU flag) gets TCG even with a
 * /dev/kvm: on such a CI machine QEMU aborted on a refused MSR write (IA32_ARCH_CAPABILITIES),
 * and with that bit turned off the guest kernel hung at boot. TCG boots there every time.
 */
export function accelerator(): 'kvm' | 'tcg' {
  if (/^flags\s*:.*\bhypervisor\b/m.test(readFileSync('/proc/cpuinfo', 'utf8'))) return 'tcg';
  try {
    accessSync('/dev/kvm', constants.R_OK | constants.W_OK);
    return 'kvm';
  } catch {
    return 'tcg';
  }
}

/** Why the VM tests cannot run here, or undefined when they can. */
export function vmSkipReason(iso: string): string | undefined {
  for (const tool of ['qemu-system-x86_64', 'pnmtopng']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `${tool} is not installed (apt-get install qemu-system-x86 ovmf netpbm)`;
    }
  }
  if (!existsSync(OVMF_CODE)) return `${OVMF_CODE} is missing (apt-get install ovmf)`;
  if (!existsSync(iso)) return `${iso} is missing: run \`npm run iso\` first`;
  return undefined;
}

const OVMF_CODE = '/usr/share/OVMF/OVMF_CODE_4M.fd';
const OVMF_VARS = '/usr/share/OVMF/OVMF_VARS_4M.fd';
const RELAY = fileURLToPath(new URL('./relay.mjs', import.meta.url));

function driveArgs(drives: readonly VmDrive[]): string[] {
  const args = ['-device', 'virtio-scsi-pci,id=scsi0', '-device', 'qemu-xhci,id=xhci'];
  // One SD host controller when a card is asked for: the guest's sdhci-pci and mmc_block give /dev/mmcblk0.
  if (drives.some((d) => d.kind === 'sd-card')) args.push('-device', 'sdhci-pci,id=sdhci');
  let ide = 0;
  drives.forEach((d, i) => {
    const id = `d${i}`;
    const boot = d.boot ? ',bootindex=0' : '';
    const serial = d.serial ? `,serial=${d.serial}` : '';
    if (d.kind === 'cdrom') {
      args.push('-drive', `file=${d.file},if=none,id=${id},media=cdrom,readonly=on,format=raw`, '-device', `ide-cd,drive=${id},bus=ide.${ide++}${boot}`);
      return;
    }
    const throttle = d.bytesPerSecond ? `,throttling.bps-total=${d.bytesPerSecond}` : '';
    args.push('-drive', `file=${d.file},if=none,id=${id},format=raw,cache=unsafe${throttle}`);
    if (d.kind === 'nvme') args.push('-device', `nvme,drive=${id},ioeventfd=off${serial || `,serial=NVME${i}`}${boot}`);
    if (d.kind === 'sata') args.push('-device', `ide-hd,drive=${id},bus=ide.${ide++}${serial}${boot}`);
    if (d.kind === 'scsi') args.push('-device', `scsi-hd,drive=${id},bus=scsi0.0${serial}${boot}`);
    if (d.kind === 'virtio') args.push('-device', `virtio-blk-pci,drive=${id}${serial}${boot}`);
    // QEMU's emulated MegaRAID SAS 2108, one controller per disk: its JBOD mode reports a physical
    // disk's id as target << 8 | lun, so megaraid_sas exposes target 0 only. Its write cache is off
    // because QEMU's megasas fails every command without data (TEST UNIT READY, SYNCHRONIZE CACHE)
    // with "Internal target failure" (megasas_map_sgl refuses an empty list): each flush, so each
    // fsync, would fail. Without JBOD the guest sees the disk only as the controller's logical drive.
    if (d.kind === 'megasas') args.push('-device', `megasas-gen2,id=mr${i}${d.jbod ? ',use_jbod=on' : ''}`, '-device', `scsi-hd,drive=${id},bus=mr${i}.0,scsi-id=0,write-cache=off${serial}${boot}`);
    if (d.kind === 'sd-card') args.push('-device', `sd-card,drive=${id}`);
    if (d.kind === 'usb-stick') args.push('-device', `usb-storage,drive=${id},bus=xhci.0,removable=on${serial}${boot}`);
  });
  return args;
}

/** A running QEMU with a serial log on disk and a QMP socket. */
export class Vm {
  readonly serialLog: string;
  private readonly qmpPath: string;
  private child: ChildProcess | undefined;
  private qmpSocket: Socket | undefined;
  private qmpBuffer = '';
  private readonly waiting: Array<(msg: Record<string, unknown>) => void> = [];
  /** QMP events seen so far (DEVICE_DELETED and co), for `waitForEvent`. */
  private readonly events: Array<{ event: string; data?: Record<string, unknown> }> = [];
  exitCode: number | null = null;

  constructor(readonly opts: VmOptions) {
    this.serialLog = join(opts.workDir, `${opts.name}-serial.log`);
    this.qmpPath = join(opts.workDir, `${opts.name}-qmp.sock`);
  }

  args(): string[] {
    const o = this.opts;
    const accel = accelerator();
    const net = [
      'user,id=n0,restrict=on',
      `guestfwd=tcp:10.0.2.100:8787-cmd:${process.execPath} ${RELAY} 127.0.0.1 ${o.gatewayPort}`,
      ...(o.agentHostPort ? [`hostfwd=tcp:127.0.0.1:${o.agentHostPort}-:7071`] : []),
    ].join(',');
    const firmware: string[] = [];
    if (o.firmware === 'uefi') {
      const vars = join(o.workDir, `${o.name}-OVMF_VARS.fd`);
      copyFileSync(OVMF_VARS, vars);
      firmware.push('-drive', `if=pflash,format=raw,readonly=on,file=${OVMF_CODE}`, '-drive', `if=pflash,format=raw,file=${vars}`);
    }
    const s = o.smbios;
    return [
      '-name', o.name,
      '-machine', `q35,accel=${accel}`,
      ...(o.s3 ? ['-global', 'ICH9-LPC.disable_s3=0'] : []),
      '-cpu', accel === 'kvm' ? 'host' : 'max',
      '-smp', '2',
      '-m', String(o.memoryMiB ?? 3072),
      ...firmware,
      '-smbios', `type=1,manufacturer=${s.manufacturer},product=${s.product},serial=${s.serial},uuid=${s.uuid}`,
      '-smbios', `type=2,manufacturer=${s.manufacturer},product=${s.product} Board,serial=${s.serial}-MB`,
      '-netdev', net,
      '-device', 'virtio-net-pci,netdev=n0',
      ...driveArgs(o.drives),
      '-vga', 'std',
      '-display', 'none',
      '-serial', `file:${this.serialLog}`,
      '-qmp', `unix:${this.qmpPath},server=on,wait=off`,
      '-no-reboot',
    ];
  }

  start(): void {
    this.child = spawn('qemu-system-x86_64', this.args(), { stdio: ['ignore', 'inherit', 'inherit'] });
    this.child.on('exit', (code) => {
      this.exitCode = code ?? -1;
    });
  }

  /**
   * Starts QEMU and waits until the image's first line (`erasure: mode …`, printed once the
   * kernel and initramfs have handed over to the image's own units). Under TCG with two vCPUs the
   * guest kernel has panicked in its first seconds, before any of the image ran ("Oops: int3" in
   * enqueue_timer as a jump label was patched on the other vCPU, seen once in ~40 CI runs): such a
   * boot is started once more, with its console kept beside the new one and the retry said on the
   * test's output. A second panic, or any panic after that line, fails the test as before.
   * `grubScreen`: a screendump of GRUB's menu, the machine's own screen at its first step.
   */
  async boot(opts: { timeoutMs: number; grubScreen?: string }): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.start();
      if (opts.grubScreen) {
        await this.waitForSerial(/GNU GRUB/, opts.timeoutMs);
        await this.screendump(opts.grubScreen);
      }
      // QMP from the start, so no guest event (SUSPEND, WAKEUP…) comes before the connection.
      await this.qmp('query-status');
      try {
        await this.waitForSerial(/erasure: mode /, opts.timeoutMs);
        return;
      } catch (error) {
        const earlyPanic = /Kernel panic - not syncing/.test(this.serial()) && !/erasure: mode /.test(this.serial());
        if (!earlyPanic || attempt > 1) throw error;
        console.warn(`${this.opts.name}: the guest kernel panicked before the image started; booting it once more (console kept in ${this.opts.name}-serial-panicked.log)\n${this.serial().slice(-1500)}`);
        await this.stopAndWait();
        renameSync(this.serialLog, join(this.opts.workDir, `${this.opts.name}-serial-panicked.log`));
        this.resetQmp();
      }
    }
  }

  private resetQmp(): void {
    this.connecting = undefined;
    this.qmpSocket = undefined;
    this.qmpBuffer = '';
    this.waiting.length = 0;
    this.events.length = 0;
    this.exitCode = null;
    this.deadCheckedAt = 0;
  }

  serial(): string {
    return existsSync(this.serialLog) ? readFileSync(this.serialLog, 'latin1') : '';
  }

  private deadCheckedAt = 0;

  /**
   * Why this VM can no longer get anywhere, or undefined while it can: QEMU exited, or the guest
   * kernel panicked (QEMU then runs on forever). The console is read at most every 10 s.
   */
  dead(): string | undefined {
    if (this.exitCode !== null) return `QEMU exited (${this.exitCode})`;
    if (Date.now() - this.deadCheckedAt < 10_000) return undefined;
    this.deadCheckedAt = Date.now();
    return /Kernel panic - not syncing/.test(this.serial()) ? 'the guest kernel panicked' : undefined;
  }

  /** Resolves with the serial log once it matches; rejects on timeout or when QEMU exits first. */
  async waitForSerial(pattern: RegExp, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const log = this.serial();
      if (pattern.test(log)) return log;
      if (this.exitCode !== null) throw new Error(`${this.opts.name}: QEMU exited (${this.exitCode}) before the serial log showed ${pattern}\n${log.slice(-4000)}`);
      // A panicked guest never prints again while QEMU runs on: no point waiting out the timeout.
      if (/Kernel panic - not syncing/.test(log)) throw new Error(`${this.opts.name}: the guest kernel panicked before the serial log showed ${pattern}\n${log.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`${this.opts.name}: no ${pattern} on the serial console within ${timeoutMs / 1000} s\n${log.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  async waitForExit(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.exitCode === null) {
      if (Date.now() > deadline) throw new Error(`${this.opts.name}: still running after ${timeoutMs / 1000} s\n${this.serial().slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    return this.exitCode;
  }

  private connecting: Promise<void> | undefined;

  /** One QMP connection, opened by the first command: concurrent first commands share it. */
  private qmpConnect(): Promise<void> {
    this.connecting ??= this.openQmp();
    return this.connecting;
  }

  private async openQmp(): Promise<void> {
    const socket = await this.connectQmp();
    socket.on('data', (chunk: Buffer) => {
      this.qmpBuffer += chunk.toString();
      let nl: number;
      while ((nl = this.qmpBuffer.indexOf('\n')) >= 0) {
        const line = this.qmpBuffer.slice(0, nl).trim();
        this.qmpBuffer = this.qmpBuffer.slice(nl + 1);
        if (!line) continue;
        const msg = JSON.parse(line) as Record<string, unknown>;
        if ('event' in msg) {
          this.events.push(msg as { event: string; data?: Record<string, unknown> });
          continue;
        }
        this.waiting.shift()?.(msg);
      }
    });
    this.qmpSocket = socket;
    await new Promise<Record<string, unknown>>((resolve) => this.waiting.push(resolve)); // greeting
    await this.send('qmp_capabilities');
  }

  /**
   * The QMP socket, once QEMU has made it: a command sent right after `start()` may come before
   * QEMU listens. Tried every 100 ms for as long as QEMU runs, at most 60 s.
   */
  private async connectQmp(): Promise<Socket> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const socket = connect(this.qmpPath);
      const error = await new Promise<Error | undefined>((resolve) => {
        socket.once('connect', () => resolve(undefined));
        socket.once('error', resolve);
      });
      if (!error) return socket;
      socket.destroy();
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ECONNREFUSED') || this.exitCode !== null || Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** One QMP command; rejects with QEMU's error. */
  async qmp(execute: string, args?: Record<string, unknown>): Promise<unknown> {
    await this.qmpConnect();
    return this.send(execute, args);
  }

  private async send(execute: string, args?: Record<string, unknown>): Promise<unknown> {
    const reply = new Promise<Record<string, unknown>>((resolve) => this.waiting.push(resolve));
    this.qmpSocket?.write(`${JSON.stringify({ execute, ...(args ? { arguments: args } : {}) })}\n`);
    const msg = await reply;
    if ('error' in msg) throw new Error(`QMP ${execute}: ${JSON.stringify(msg.error)}`);
    return msg.return;
  }

  /** Resolves once QEMU has sent an event of that name whose data matches; without a timeout, for as long as QEMU runs. */
  async waitForEvent(name: string, match: (data: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<void> {
    const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
    while (!this.events.some((e) => e.event === name && match(e.data ?? {}))) {
      if (this.exitCode !== null) throw new Error(`${this.opts.name}: QEMU exited (${this.exitCode}) before QMP ${name}`);
      if (Date.now() > deadline) throw new Error(`${this.opts.name}: no QMP ${name} within ${(timeoutMs ?? 0) / 1000} s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  private plugs = 0;

  /**
   * Seats a drive backed by `file` in target `slot` of the virtio-scsi controller, as a drive
   * pushed into a backplane bay: `blockdev-add` then `device_add` (the guest sees a hot-add).
   * `bytesPerSecond` caps the drive's reads and writes together (`block_set_io_throttle`), so an
   * erase lasts at least size / rate whatever the accelerator, like a real disk's speed would.
   */
  async hotplug(slot: number, file: string, serial: string, opts: { bytesPerSecond?: number } = {}): Promise<void> {
    const node = `hs${slot}-${++this.plugs}`;
    await this.qmp('blockdev-add', { driver: 'raw', 'node-name': node, file: { driver: 'file', filename: file, cache: { direct: false, 'no-flush': true } } });
    await this.qmp('device_add', { driver: 'scsi-hd', id: `bay${slot}`, drive: node, bus: 'scsi0.0', channel: 0, 'scsi-id': slot, lun: 0, serial });
    this.nodes.set(slot, node);
    if (opts.bytesPerSecond) await this.qmp('block_set_io_throttle', { id: `bay${slot}`, bps: opts.bytesPerSecond, bps_rd: 0, bps_wr: 0, iops: 0, iops_rd: 0, iops_wr: 0 });
  }

  private readonly nodes = new Map<number, string>();

  /**
   * Changes the cap on the drive seated in target `slot` (0 lifts it): a test slows a drive only
   * while the slowness is what it checks, then lets it run at the emulator's own speed.
   */
  async throttle(slot: number, bytesPerSecond: number): Promise<void> {
    await this.qmp('block_set_io_throttle', { id: `bay${slot}`, bps: bytesPerSecond, bps_rd: 0, bps_wr: 0, iops: 0, iops_rd: 0, iops_wr: 0 });
  }

  /** Pulls the drive out of target `slot`: `device_del`, then the backing node once QEMU let go of it. */
  async unplug(slot: number): Promise<void> {
    await this.qmp('device_del', { id: `bay${slot}` });
    // The guest acknowledges the removal as fast as it runs: waited for as long as QEMU runs.
    await this.waitForEvent('DEVICE_DELETED', (d) => d.device === `bay${slot}`);
    this.events.splice(0, this.events.length, ...this.events.filter((e) => !(e.event === 'DEVICE_DELETED' && e.data?.device === `bay${slot}`)));
    const node = this.nodes.get(slot);
    if (node) await this.qmp('blockdev-del', { 'node-name': node });
    this.nodes.delete(slot);
  }

  /** What the VM's own screen shows, as a PNG (QMP screendump writes PPM). */
  async screendump(png: string): Promise<void> {
    const ppm = `${png}.ppm`;
    await this.qmp('screendump', { filename: ppm });
    execFileSync('sh', ['-c', `pnmtopng "${ppm}" > "${png}" && rm -f "${ppm}"`]);
  }

  /**
   * The VM's screen once a page is drawn on it: Chromium under cage starts minutes after the
   * agent under TCG, and paints its background (white, then the page's) well before the page's
   * content. So a screen counts as drawn only when at least three colours each cover 0.5 % of
   * it (the kiosk's dark header, its background, its cards), which a bare background or a
   * cursor on black never does. Dumps every 2 s until then or the time is up; the last dump is
   * kept either way, for a person to look at.
   */
  async screendumpWhenDrawn(png: string, timeoutMs: number): Promise<boolean> {
    const ppm = `${png}.ppm`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.qmp('screendump', { filename: ppm });
      const drawn = colourAreas(readFileSync(ppm)) >= 3;
      if (drawn || Date.now() > deadline) {
        execFileSync('sh', ['-c', `pnmtopng "${ppm}" > "${png}" && rm -f "${ppm}"`]);
        return drawn;
      }
      await new Promise((r) => setTimeout(r, 2_000));
    }
  }

  stop(): void {
    this.qmpSocket?.destroy();
    if (this.child && this.exitCode === null) this.child.kill('SIGKILL');
  }

  /**
   * Stops the VM and resolves once QEMU has exited, so its host forwarding ports are free again:
   * a VM booted next on the same ports fails to start while the old QEMU still holds them.
   */
  async stopAndWait(): Promise<void> {
    const child = this.child;
    const exited = !child || this.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.stop();
    await exited;
  }
}

/**
 * How many colours each cover at least 0.5 % of a binary PPM (P6, 8-bit) screen, sampling every
 * 16th pixel and grouping colours by their top 4 bits per channel (anti-aliasing merges in).
 */
function colourAreas(ppm: Buffer): number {
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 64).toString('latin1'));
  if (!header) return 0;
  const start = (header[0] as string).length;
  const pixels = Number(header[1]) * Number(header[2]);
  const counts = new Map<number, number>();
  let seen = 0;
  for (let i = 0; i < pixels; i += 16) {
    const at = start + i * 3;
    const key = (((ppm[at] ?? 0) >> 4) << 8) | (((ppm[at + 1] ?? 0) >> 4) << 4) | ((ppm[at + 2] ?? 0) >> 4);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    seen++;
  }
  return [...counts.values()].filter((n) => n >= seen * 0.005).length;
}
