import { isIP } from 'node:net';
import { DEFAULT_ERASURE_POLICY, parseVerificationLevel, type ErasurePolicy, type VerificationLevel } from '@erasure/shared';

/** How the image was asked to run, from the kernel command line (the options nwipe/ShredOS users know). */
export interface BootOptions {
  /**
   * `erasure.mode=kiosk` (default): the locked kiosk; `headless`: one run, progress on the console;
   * `validate`: the drives the cloud picked for validation are read and reported, nothing erased.
   */
  readonly mode: 'kiosk' | 'headless' | 'validate';
  /** `erasure.devices=all` (default) or a comma-separated list of device paths. */
  readonly devices: 'all' | readonly string[];
  /** `erasure.confirm=yes`: headless erasure happens only with it; without it the run only fingerprints and reports. */
  readonly confirm: boolean;
  /** `erasure.after=poweroff|wait` (default wait): what the machine does when a headless run ends. */
  readonly after: 'poweroff' | 'wait';
  /** `erasure.gateway=URL` overrides the gateway URL baked into the image. */
  readonly gatewayUrl?: string;
  /**
   * `erasure.agent_listen=any` (every interface) or `=<IP address>` (that one only): a proxy
   * offers the kiosk on port 7071 there, so a browser on another machine (the QEMU test's host)
   * can drive it once paired with the code the machine shows. Absent when not given or not one
   * of those (no proxy). For test rigs; the agent itself always binds loopback.
   */
  readonly agentListen?: string;
  /** `erasure.agent_secret=`: the remote kiosk's pairing code instead of one made at boot. */
  readonly agentSecret?: string;
  /**
   * `erasure.station_policy=auto|confirm`: a hotswap station's erase policy until the operator
   * saves one in the kiosk's settings. Absent when not given; any other value is `confirm`.
   */
  readonly stationPolicy?: 'auto' | 'confirm';
  /**
   * `erasure.unfreeze=auto|off` (default auto): whether the agent suspends the machine once at
   * boot (`rtcwake -m mem`) to unfreeze ATA drives a firmware erase would take. Absent when not
   * given; any value but `auto` or `always` is `off`, since a machine may not wake from a suspend.
   * `always` suspends once even with no frozen drive: for test rigs (no virtual drive can be frozen).
   */
  readonly unfreeze?: 'auto' | 'off' | 'always';
  /** `erasure.parallel=N`: at most N drives erased at once (a weak machine); absent or not a positive integer: all. */
  readonly parallel?: number;
  /**
   * `erasure.method=<id>`: the catalogue method every drive is erased with (issue 29), e.g.
   * `dod-5220.22-m-3`. Kept as written: an unknown id is refused by the planner, so nothing is erased.
   */
  readonly method?: string;
  /**
   * `erasure.method=<device>:<id>,…` (beside or instead of a bare `<id>`): the method of one drive,
   * e.g. `/dev/sdb:hmg-is5-enhanced` when one disk's customer contract names a method and the
   * others keep the default. Kept as written, like `method`.
   */
  readonly methods?: Readonly<Record<string, string>>;
  /**
   * `erasure.validate=yes`: after a headless run's results are delivered, the drives of this
   * machine the cloud picked for validation are read and reported, as `erasure.mode=validate` does.
   */
  readonly validate?: boolean;
  /** `erasure.verify=full|every-pass|sample:N` (N 1..100); anything else is `full` (reads every sector). */
  readonly verify?: VerificationLevel;
}

/** Splits a kernel command line into words, honouring double quotes as the kernel does. */
export function cmdlineWords(cmdline: string): string[] {
  return [...cmdline.matchAll(/(?:[^\s"]+|"[^"]*")+/g)].map((m) => m[0].replace(/"/g, ''));
}

/**
 * Reads the `erasure.*` options. Anything unrecognised falls to the safe side: an unknown mode
 * is the kiosk (locked until the cloud allows), an unknown `after` waits, only the exact
 * word `yes` confirms erasure, and an unknown station policy waits for confirmation per drive.
 */
export function parseBootOptions(cmdline: string): BootOptions {
  const values = new Map<string, string>();
  for (const word of cmdlineWords(cmdline)) {
    const eq = word.indexOf('=');
    if (word.startsWith('erasure.') && eq > 0) values.set(word.slice('erasure.'.length, eq), word.slice(eq + 1));
  }
  const devices = values.get('devices');
  const list = devices === undefined || devices === 'all' ? 'all' : devices.split(',').filter((d) => d.length > 0);
  const gateway = values.get('gateway');
  const stationPolicy = values.get('station_policy');
  const unfreeze = values.get('unfreeze');
  const parallel = /^[1-9]\d{0,3}$/.test(values.get('parallel') ?? '') ? Number(values.get('parallel')) : undefined;
  const agentListen = values.get('agent_listen');
  const agentSecret = values.get('agent_secret');
  const mode = values.get('mode');
  const { method, methods } = methodsOf(values.get('method'));
  return {
    mode: mode === 'headless' || mode === 'validate' ? mode : 'kiosk',
    devices: list === 'all' || list.length === 0 ? 'all' : list,
    confirm: values.get('confirm') === 'yes',
    after: values.get('after') === 'poweroff' ? 'poweroff' : 'wait',
    ...(gateway && /^https?:\/\//.test(gateway) ? { gatewayUrl: gateway } : {}),
    ...(agentListen === 'any' || (agentListen !== undefined && isIP(agentListen) !== 0) ? { agentListen } : {}),
    ...(agentSecret ? { agentSecret } : {}),
    ...(stationPolicy !== undefined ? { stationPolicy: stationPolicy === 'auto' ? ('auto' as const) : ('confirm' as const) } : {}),
    ...(unfreeze !== undefined ? { unfreeze: unfreeze === 'auto' || unfreeze === 'always' ? unfreeze : ('off' as const) } : {}),
    ...(parallel !== undefined ? { parallel } : {}),
    ...(method ? { method } : {}),
    ...(methods ? { methods } : {}),
    ...(values.get('validate') === 'yes' ? { validate: true } : {}),
    ...(values.has('verify') ? { verify: parseVerificationLevel(values.get('verify') ?? '') ?? 'full' } : {}),
  };
}

/**
 * `erasure.method=`'s entries: `<device>:<id>` pairs (a device path has no colon, nor has an id)
 * and the bare rest, kept as written: two bare ids stay one unknown id, which the planner refuses.
 */
function methodsOf(value: string | undefined): { method?: string; methods?: Record<string, string> } {
  if (!value) return {};
  const entries = value.split(',').filter((e) => e.length > 0);
  const pairs = entries.filter((e) => /^\/[^:]+:[^:]+$/.test(e));
  const bare = entries.filter((e) => !pairs.includes(e)).join(',');
  return {
    ...(bare ? { method: bare } : {}),
    ...(pairs.length > 0 ? { methods: Object.fromEntries(pairs.map((e) => [e.slice(0, e.indexOf(':')), e.slice(e.indexOf(':') + 1)])) } : {}),
  };
}

/**
 * The planner's method policy of `erasure.method=` and `erasure.verify=`: none when neither is
 * given (today's plan). A level alone keeps the default method (NIST Purge) at that level.
 */
export function bootMethodPolicy(options: Pick<BootOptions, 'method' | 'verify'>): { methodId?: string; erasure?: ErasurePolicy } {
  return {
    ...(options.method ? { methodId: options.method } : {}),
    ...(options.verify ? { erasure: { ...DEFAULT_ERASURE_POLICY, verification: options.verify } } : {}),
  };
}
