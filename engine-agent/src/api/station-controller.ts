import { CHASSIS_SITE_MAX, type Bay, type StationBayView, type StationView, type WizardAction, type WizardView } from '@erasure/shared';
import { canCancel, canConfirm, type DriveFacts } from '../station/bay-machine.js';
import type { Presence } from '../station/debounce.js';
import { bayLedFollower, type BayLed } from '../station/bay-leds.js';
import { isNvmeMultipathHead, type Lane } from '../station/lanes.js';
import { createPresenceQueue } from '../station/presence-queue.js';
import { connectorOf, gridOfMap, mapToSave, wireConnector, type SavedMap } from '../station/map-layout.js';
import { createStation, type ErasePolicy, type StationPorts } from '../station/station.js';
import { labelRefusal, nextBayNumber, startWizard, stepWizard, type WizardState } from '../station/wizard.js';

type Outcome = { ok: true } | { ok: false; reason: string };

/** A storage controller of the machine, as the wizard lists them. */
export interface ControllerFound {
  readonly controller: string;
  readonly transport: string;
  readonly description?: string;
  /** How many bays (slots) it has, where it says so (the simulated backplane does). */
  readonly bays?: number;
}

/** What a bay's locate LED can be found by: its drive, when one is seated, and its SES slot, when its connector records one. */
export interface LocateTarget {
  readonly device?: string;
  readonly enclosure?: { readonly id: string; readonly slot: string };
}

/** What the station controller needs from the machine and the gateway; `serve` passes the real ones, tests fakes. */
export interface StationRuntimePorts extends Omit<StationPorts, 'changed'> {
  /** The chassis map of this chassis (`POST /api/chassis_map/lookup`); a failed lookup says why. */
  lookupMap(): Promise<{ ok: true; bays?: Bay[]; name?: string; site?: string } | { ok: false; reason: string }>;
  /** Saves the map (`POST /api/chassis_map`, an upsert). */
  saveMap(map: SavedMap): Promise<Outcome>;
  /** Starts watching drives come and go; `ended` settles when the watch stops on its own. */
  watch(onPresence: (p: Presence) => void): { stop(): Promise<void>; ended: Promise<{ byStop: boolean; exitCode: number | undefined; stderr: string; reason?: string }> };
  /** Asks udev to report the drives already seated (they arrive as change events on the watch). */
  announcePresent(): Promise<void>;
  controllers(): Promise<ControllerFound[]>;
  /** True when this bay's locate LED can blink: its SES slot (a drive in it or not), else ledctl for its drive. */
  canLocate(target: LocateTarget): Promise<boolean>;
  /** Blinks it for 15 s; false when nothing can. */
  locate(target: LocateTarget): Promise<boolean>;
  /** Sets a bay's LEDs to follow its state (issue 32); false when nothing can. Absent: no LEDs follow. */
  showBayLed?(target: LocateTarget, led: BayLed): Promise<boolean>;
  /** Starts following a passed bay's certificate; `certificateOf` reads what is known. */
  followCertificate(jobId: string): void;
  certificateOf(jobId: string): string | undefined;
  /** One line per thing worth telling whoever reads the journal (drives seated and removed, bay states). */
  log?(line: string): void;
  /** Keeps the policy the operator chose in settings for the next boots (DATA_DIR). */
  savePolicy?(policy: ErasePolicy): Promise<void>;
}

type Phase = StationView['phase'];

/**
 * The hotswap station of `serve`: once the boot is unlocked it looks the chassis map up; no map
 * opens the mapping wizard, a map opens the bay view. Drives come and go through one udev watch
 * for the station's whole life, routed to the wizard while it runs and to the bays after. The
 * wizard's saved map becomes the bay view at once; re-running the wizard (settings) saves again.
 */
export class StationController {
  private phase: Phase = 'waiting_for_unlock';
  private reason: string | undefined;
  private wizard: { state: WizardState; saving: boolean; error?: string; controllers: ControllerFound[] } | undefined;
  private station: ReturnType<typeof createStation> | undefined;
  private mapName = '';
  /** The map's site, when it has one. */
  private mapSite: string | undefined;
  private mapBays: Bay[] = [];
  private watch: ReturnType<StationRuntimePorts['watch']> | undefined;
  private watchError: string | undefined;
  /** Seated drives by device path, with their lane (the wizard lists them; re-mapping starts from them). */
  private readonly seated = new Map<string, { lane?: Lane; device: string; properties: Readonly<Record<string, string>> }>();
  /** Whether a lane's locate LED blinks, as found for the first drive seen in it. */
  private readonly locatable = new Map<string, boolean>();
  /** Whether a mapped bay's SES slot blinks with no drive in it, from the slot its connector records. */
  private readonly slotLocatable = new Map<string, boolean>();
  private readonly followed = new Set<string>();
  private readonly loggedStates = new Map<string, string>();
  /** A device path's presences, one at a time; an insertion whose removal arrives meanwhile is dropped. */
  private readonly presences = createPresenceQueue();
  /** The policy saves, one after another in the order chosen: the last choice is the one on disk. */
  private policySaves: Promise<void> = Promise.resolve();

  /** The bays' LEDs, following their states where the enclosure has them. */
  private readonly leds: ReturnType<typeof bayLedFollower<LocateTarget>> | undefined;

  constructor(
    private readonly ports: StationRuntimePorts,
    private policy: ErasePolicy,
    private readonly changed: () => void,
  ) {
    const show = ports.showBayLed?.bind(ports);
    this.leds = show ? bayLedFollower<LocateTarget>(show, ports.log?.bind(ports)) : undefined;
  }

  /** Starts the station once the boot is unlocked: the watch first (nothing inserted meanwhile is missed), then the lookup. */
  async start(): Promise<void> {
    if (this.phase !== 'waiting_for_unlock') return;
    this.phase = 'looking_up';
    this.changed();
    this.watch = this.ports.watch((p) => void this.onPresence(p));
    void this.watch.ended.then((r) => {
      if (r.byStop) return;
      // A watch that could not start says why in plain words; a monitor that died, with its last line.
      this.watchError = r.reason ?? `udev monitor stopped (exit ${r.exitCode ?? 'signal'})${r.stderr ? `: ${r.stderr.trim().split('\n').at(-1)}` : ''}`;
      this.ports.log?.(`cannot see drives come and go: ${this.watchError}`);
      this.changed();
    });
    const found = await this.ports.lookupMap();
    // Said in the journal either way: a map not found must read differently from one opened.
    if (!found.ok) {
      this.phase = 'failed';
      this.reason = `the chassis map lookup failed: ${found.reason}`;
      this.ports.log?.(this.reason);
    } else if (found.bays && found.bays.length > 0) {
      this.ports.log?.(`chassis map "${found.name ?? 'Chassis'}" opened: ${bayCount(found.bays.length)}`);
      this.openBays(found.name ?? 'Chassis', found.bays, found.site);
    } else {
      this.ports.log?.('no chassis map for this chassis yet: the mapping wizard opens');
      await this.openWizard();
    }
    this.changed();
    await this.ports.announcePresent().catch(() => undefined);
  }

  private async openWizard(): Promise<void> {
    const present = [...this.seated.values()].flatMap((s) => (s.lane ? [{ lane: s.lane.lane, connector: s.lane.connector }] : []));
    const controllers = await this.ports.controllers().catch(() => []);
    this.wizard = { state: startWizard(present, undefined, bayCountOf(controllers)), saving: false, controllers };
    this.phase = 'wizard';
  }

  private openBays(name: string, bays: Bay[], site?: string): void {
    this.mapName = name;
    this.mapSite = site;
    this.mapBays = bays;
    this.wizard = undefined;
    this.phase = 'bays';
    this.station = createStation(
      { name, bays: bays.map((b) => ({ lane: b.lane, label: b.label })) },
      {
        laneOf: (p) => this.ports.laneOf(p),
        probe: (device) => this.ports.probe(device),
        ...(this.ports.health ? { health: (device: string) => this.ports.health?.(device) ?? Promise.resolve('unknown' as const) } : {}),
        guard: (device) => this.ports.guard(device),
        runBay: (job) => this.ports.runBay(job),
        changed: () => this.onBaysChanged(),
      },
      () => this.policy,
    );
    void this.findLocatableSlots(bays);
    // Drives seated before the map existed (the wizard's own, or ones there at boot) wait for
    // the operator: a change event is how the station says "already seated".
    const station = this.station;
    for (const [devpath, s] of this.seated) {
      const seated: Presence = { devpath, present: true, event: { action: 'change', devpath, devname: s.device, devtype: 'disk', seqnum: undefined, properties: s.properties } };
      void this.presences.run(devpath, false, (current) => station.presence(seated, current)).catch((error: unknown) => this.ports.log?.(`${s.device}: ${(error as Error).message}`));
    }
  }

  /** Passed bays get their certificate followed once; the view reads the number when it arrives. */
  private onBaysChanged(): void {
    const views = this.station?.views() ?? [];
    this.leds?.follow(views.map((v) => ({ lane: v.lane, state: v.bay.state, target: this.ledTarget(v.lane, 'drive' in v.bay ? v.bay.drive.device : undefined) })));
    for (const v of views) {
      if (this.loggedStates.get(v.lane) !== v.bay.state) {
        this.loggedStates.set(v.lane, v.bay.state);
        const why = v.bay.state === 'failed' || v.bay.state === 'pulled' ? `: ${v.bay.reason}` : '';
        this.ports.log?.(`${v.label}: ${v.bay.state.replace(/_/g, ' ')}${'drive' in v.bay ? ` (${v.bay.drive.device})` : ''}${why}`);
      }
      if (v.bay.state === 'passed' && !this.followed.has(v.bay.jobId)) {
        this.followed.add(v.bay.jobId);
        this.ports.followCertificate(v.bay.jobId);
      }
    }
    this.changed();
  }

  /** Queues a settled presence behind its device path's earlier ones (a removal also drops an insertion still being looked at). */
  private onPresence(p: Presence): Promise<void> {
    return this.presences.run(p.devpath, !p.present, (current) =>
      this.handlePresence(p, current).catch((error: unknown) => this.ports.log?.(`${p.devpath}: ${(error as Error).message}`)),
    );
  }

  private async handlePresence(p: Presence, current: () => boolean): Promise<void> {
    if (!p.present) {
      const was = this.seated.get(p.devpath);
      if (was) this.ports.log?.(`${was.device} removed`);
      this.seated.delete(p.devpath);
      if (this.wizard && was?.lane) this.stepWizard({ type: 'lane_gone', lane: was.lane.lane });
      await this.station?.presence(p);
      this.changed();
      return;
    }
    // An optical drive is never a bay's drive (and is often the boot medium itself), nor is a
    // virtual block device (the live system's loop devices, device-mapper, md, RAM disks), save
    // the multipath head the kernel puts a dual-port NVMe drive's namespace under.
    if (p.event.properties.ID_CDROM === '1' || (p.devpath.startsWith('/devices/virtual/') && !isNvmeMultipathHead(p.devpath))) return;
    const device = p.event.devname ?? p.devpath;
    // Nor is the station's own boot stick or ERASURE-DATA volume: never listed, never offered.
    const verdict = await this.ports.guard(device);
    // Pulled while the guard looked: its removal, queued behind this, has nothing to undo.
    if (!current()) return;
    if (!verdict.ok && verdict.own) {
      this.ports.log?.(`${device} is not a bay drive: ${verdict.reason}`);
      return;
    }
    this.ports.log?.(`${device} ${p.event.action === 'add' ? 'inserted' : 'seated'} (${p.event.properties.ID_PATH ?? 'no bus path'})`);
    const lane = await this.ports.laneOf(p);
    if (!current()) return;
    this.seated.set(p.devpath, { device, properties: p.event.properties, ...(lane ? { lane } : {}) });
    if (lane && !this.locatable.has(lane.lane)) this.locatable.set(lane.lane, await this.ports.canLocate({ device, ...(lane.connector.enclosure ? { enclosure: lane.connector.enclosure } : {}) }).catch(() => false));
    if (!current()) return;
    if (this.wizard) {
      // The boot medium and anything mounted are never offered as a bay's drive.
      if (lane && verdict.ok) this.stepWizard(p.event.action === 'add' ? { type: 'lane_seen', lane: lane.lane, connector: lane.connector } : { type: 'already_present', lane: lane.lane, connector: lane.connector });
      this.changed();
      return;
    }
    await this.station?.presence(p, current);
    this.changed();
  }

  private stepWizard(e: Parameters<typeof stepWizard>[1]): void {
    if (this.wizard) this.wizard = { ...this.wizard, state: stepWizard(this.wizard.state, e) };
  }

  /** A wizard step from the operator. */
  async wizardStep(step: WizardAction): Promise<Outcome> {
    const w = this.wizard;
    if (this.phase !== 'wizard' || !w) return { ok: false, reason: 'the mapping wizard is not open' };
    if (w.saving) return { ok: false, reason: 'the map is being saved' };
    if (step.action === 'save') return this.save();
    const before = w.state;
    const event = step.action === 'assign_preexisting' ? { type: step.action, lane: step.lane, ...(step.label ? { label: step.label } : {}) } : step.action === 'accept' ? { type: step.action, ...(step.label ? { label: step.label } : {}) } : step.action === 'grid' ? { type: step.action, rows: step.rows, columns: step.columns } : step.action === 'name' ? { type: step.action, name: step.name, ...(step.site !== undefined ? { site: step.site } : {}) } : { type: step.action };
    this.stepWizard(event as Parameters<typeof stepWizard>[1]);
    if (this.wizard?.state === before && step.action !== 'name') return { ok: false, reason: refusal(before, step) };
    this.changed();
    return { ok: true };
  }

  private async save(): Promise<Outcome> {
    const w = this.wizard;
    if (!w || w.state.step !== 'naming') return { ok: false, reason: 'finish mapping the bays first' };
    const name = w.state.name.trim();
    if (!name) return { ok: false, reason: 'name the map first' };
    const site = w.state.site?.trim().replace(/\s+/g, ' ').slice(0, CHASSIS_SITE_MAX) || undefined;
    const map = mapToSave(name, w.state.bays, w.state.grid, site);
    this.wizard = { ...w, saving: true };
    this.changed();
    const saved = await this.ports.saveMap(map);
    if (!saved.ok) {
      this.wizard = { ...w, saving: false, error: `the map was not saved: ${saved.reason}` };
      this.changed();
      return { ok: false, reason: this.wizard.error ?? 'not saved' };
    }
    this.ports.log?.(`chassis map "${name}" saved and opened: ${bayCount(map.bays.length)}`);
    this.openBays(name, map.bays.map((b) => ({ lane: b.lane, label: b.label, connector: b.connector as Record<string, unknown> })), site);
    this.changed();
    return { ok: true };
  }

  /** Settings: map the chassis again (saved as an upsert). Refused while a bay is busy. */
  async remap(): Promise<Outcome> {
    if (this.phase === 'wizard') return { ok: false, reason: 'the mapping wizard is already open' };
    if (this.phase !== 'bays' && this.phase !== 'failed') return { ok: false, reason: 'the station is still starting' };
    if (this.station?.busy()) return { ok: false, reason: 'a bay is erasing: wait until it is done' };
    this.station = undefined;
    await this.openWizard();
    this.changed();
    return { ok: true };
  }

  /**
   * Settings: the erase policy, in force at once and saved for the next boots. A save that fails
   * (DATA_DIR unwritable) still leaves the choice in force for this boot, and the journal says so.
   * Saves run one at a time, in order: two quick changes never write the file at once.
   */
  async setPolicy(policy: ErasePolicy): Promise<Outcome> {
    this.policy = policy;
    this.changed();
    const save = this.policySaves.then(() => this.ports.savePolicy?.(policy)).catch((error: unknown) => this.ports.log?.(`erase policy ${policy} is in force for this boot but was not saved: ${(error as Error).message}`));
    this.policySaves = save;
    await save;
    return { ok: true };
  }

  confirm(lane: string): Outcome {
    return this.station?.confirm(lane) ? { ok: true } : { ok: false, reason: 'that bay is not waiting for confirmation' };
  }

  /** "Erase every waiting bay": each bay's own Erase, under the same rules; refused when none waits. */
  confirmWaiting(): Outcome {
    return (this.station?.confirmWaiting() ?? 0) > 0 ? { ok: true } : { ok: false, reason: 'no bay is waiting for confirmation' };
  }

  cancel(lane: string): Outcome {
    if (this.station?.cancel(lane)) return { ok: true };
    const bay = this.station?.views().find((v) => v.lane === lane)?.bay;
    return { ok: false, reason: bay?.state === 'erasing' && bay.firmware ? 'a firmware erase runs inside the drive and cannot be stopped: it completes on its own' : 'that bay has nothing to cancel' };
  }

  /**
   * Blinks a bay's locate LED: by its drive, or by its SES slot when it is empty. A bay that
   * turns out not to blink (ledctl refused its controller) is shown as one that cannot from then on.
   */
  async locate(lane: string): Promise<Outcome> {
    const bay = this.station?.views().find((v) => v.lane === lane)?.bay;
    const mapped = this.mapBays.find((b) => b.lane === lane);
    const enclosure = mapped ? connectorOf(mapped)?.enclosure : undefined;
    if (!bay || (bay.state === 'empty' && !enclosure)) return { ok: false, reason: 'no drive in that bay to locate' };
    // Its locate LED already blinks while it erases; a 15-s blink would end by turning it off.
    if (this.leds?.showing(lane) === 'working') return { ok: true };
    const target = { ...(bay.state === 'empty' ? {} : { device: bay.drive.device }), ...(enclosure ? { enclosure } : {}) };
    if (!(await this.ports.locate(target).catch(() => false))) {
      this.locatable.set(lane, false);
      this.slotLocatable.set(lane, false);
      this.changed();
      return { ok: false, reason: 'this enclosure cannot blink a locate LED for that bay' };
    }
    return { ok: true };
  }

  /** Finds which mapped bays' SES slots can blink while empty (the connector records the slot). */
  private async findLocatableSlots(bays: readonly Bay[]): Promise<void> {
    let found = false;
    for (const b of bays) {
      const enclosure = connectorOf(b)?.enclosure;
      if (!enclosure || this.slotLocatable.has(b.lane)) continue;
      this.slotLocatable.set(b.lane, await this.ports.canLocate({ enclosure }).catch(() => false));
      found ||= this.slotLocatable.get(b.lane) === true;
    }
    if (found) this.changed();
  }

  /** What a bay's LEDs are reached by: its drive, and its SES slot when the map records one; none without either. */
  private ledTarget(lane: string, device: string | undefined): LocateTarget | undefined {
    const mapped = this.mapBays.find((b) => b.lane === lane);
    const enclosure = mapped ? connectorOf(mapped)?.enclosure : undefined;
    if (!device && !enclosure) return undefined;
    return { ...(device ? { device } : {}), ...(enclosure ? { enclosure } : {}) };
  }

  /** A bay with a drive blinks by it or by its slot; an empty one only by its SES slot. */
  private canLocate(lane: string, empty: boolean): boolean {
    return this.slotLocatable.get(lane) === true || (!empty && this.locatable.get(lane) === true);
  }

  view(): StationView {
    const grid = this.phase === 'bays' ? gridOfMap(this.mapBays) : undefined;
    return {
      phase: this.phase,
      ...(this.reason ? { reason: this.reason } : {}),
      policy: this.policy,
      ...(grid ? { map: { name: this.mapName, ...(this.mapSite ? { site: this.mapSite } : {}), grid } } : {}),
      ...(this.wizard ? { wizard: this.wizardView() } : {}),
      bays: this.bayViews(),
      unmapped: this.station ? this.unmappedView() : [],
      watching: this.watch !== undefined && this.watchError === undefined,
      ...(this.watchError ? { watch_error: this.watchError } : {}),
    };
  }

  private unmappedView(): StationView['unmapped'] {
    const mapped = new Set(this.mapBays.map((b) => b.lane));
    return [...this.seated.values()].filter((s) => !s.lane || !mapped.has(s.lane.lane)).map((s) => ({ device: s.device, ...(s.lane ? { lane: s.lane.lane } : {}) }));
  }

  private wizardView(): WizardView {
    const w = this.wizard;
    if (!w) throw new Error('no wizard');
    const s = w.state;
    const deviceOf = (lane: string) => [...this.seated.values()].find((x) => x.lane?.lane === lane)?.device;
    const withDevice = (lane: string) => {
      const device = deviceOf(lane);
      return device ? { device } : {};
    };
    const controllers = [...w.controllers];
    for (const b of s.step === 'saved' ? s.bays : [...s.bays, ...s.preexisting, ...(s.step === 'mapping' && s.proposal ? [s.proposal] : [])]) {
      if (!controllers.some((c) => c.controller === b.connector.controller)) controllers.push({ controller: b.connector.controller, transport: b.connector.transport });
    }
    const bays = s.bays.map((b) => ({ number: b.number, lane: b.lane, label: b.label, connector: wireConnector(b.connector) }));
    const step: WizardView['step'] = s.step === 'mapping' ? 'mapping' : s.step === 'saved' ? 'saved' : w.saving ? 'saving' : 'naming';
    return {
      step,
      controllers,
      bays,
      skipped: s.step === 'saved' ? [] : [...s.skipped],
      next_bay: s.step === 'saved' ? bays.length + 1 : nextBayNumber(s),
      preexisting: s.step === 'saved' ? [] : s.preexisting.map((p) => ({ lane: p.lane, connector: wireConnector(p.connector), ...withDevice(p.lane) })),
      ...(s.step === 'mapping' && s.proposal ? { proposal: { lane: s.proposal.lane, connector: wireConnector(s.proposal.connector), label: s.proposal.label, ...withDevice(s.proposal.lane) } } : {}),
      grid: s.step === 'saved' ? { rows: 1, columns: Math.max(1, bays.length) } : s.grid,
      name: s.step === 'naming' ? s.name : s.step === 'saved' ? s.name : '',
      site: s.site ?? '',
      ...(s.step !== 'saved' && s.bayCount !== undefined ? { bay_count: s.bayCount } : {}),
      ...(w.error ? { error: w.error } : {}),
    };
  }

  private bayViews(): StationBayView[] {
    if (!this.station) return [];
    const connectors = new Map(this.mapBays.map((b) => [b.lane, connectorOf(b)]));
    return this.station.views().map(({ lane, label, bay }): StationBayView => {
      const connector = connectors.get(lane);
      const base = { lane, label, ...(connector ? { connector } : {}), can_locate: this.canLocate(lane, bay.state === 'empty') };
      const can = { confirm: canConfirm(bay), cancel: canCancel(bay) };
      if (bay.state === 'empty') return { ...base, state: 'empty', can: { confirm: false, cancel: false } };
      const drive = driveView(bay.drive);
      switch (bay.state) {
        case 'erasing':
          return {
            ...base,
            state: bay.state,
            drive,
            job_id: bay.jobId,
            can,
            ...(bay.progress ? { progress: { method: bay.progress.method, pass: bay.progress.pass, percent: Math.min(100, Math.max(0, bay.progress.percent)), ...(bay.progress.bytesPerSecond !== undefined ? { bytes_per_second: bay.progress.bytesPerSecond } : {}), ...(bay.progress.etaSeconds !== undefined ? { eta_seconds: bay.progress.etaSeconds } : {}) } } : {}),
          };
        case 'verifying':
          return { ...base, state: bay.state, drive, job_id: bay.jobId, can, ...(bay.percent !== undefined ? { verify_percent: Math.min(100, Math.max(0, bay.percent)) } : {}) };
        case 'passed': {
          const number = bay.certificateNumber ?? this.ports.certificateOf(bay.jobId);
          return { ...base, state: bay.state, drive, job_id: bay.jobId, can, ...(number ? { certificate_number: number } : {}) };
        }
        case 'failed':
          return { ...base, state: bay.state, drive, reason: bay.reason, untouched: bay.untouched, can, ...(bay.jobId ? { job_id: bay.jobId } : {}) };
        case 'pulled':
          return { ...base, state: bay.state, drive, reason: bay.reason, during: bay.during, can, ...(bay.jobId ? { job_id: bay.jobId } : {}) };
        case 'cancelled':
          return { ...base, state: bay.state, drive, untouched: bay.untouched, can, ...(bay.jobId ? { job_id: bay.jobId } : {}) };
        case 'checking_in': {
          const w = bay.waiting;
          return { ...base, state: bay.state, drive, can, ...(w ? { waiting_for_cloud: { reason: w.reason, attempts: w.attempts, since: w.since, retry_at: w.retryAt } } : {}) };
        }
        default:
          return { ...base, state: bay.state, drive, can };
      }
    });
  }

  async close(): Promise<void> {
    await this.watch?.stop().catch(() => undefined);
  }
}

function driveView(d: DriveFacts): NonNullable<StationBayView['drive']> {
  return { device: d.device, health: d.health, ...(d.model ? { model: d.model } : {}), ...(d.serial ? { serial: d.serial } : {}), ...(d.sizeBytes !== undefined ? { size_bytes: d.sizeBytes } : {}), ...(d.mediaType ? { media_type: d.mediaType } : {}) };
}

/** The bays the controllers report between them, when every one says how many it has; else unknown. */
export function bayCountOf(controllers: readonly ControllerFound[]): number | undefined {
  if (controllers.length === 0 || controllers.some((c) => c.bays === undefined)) return undefined;
  return controllers.reduce((sum, c) => sum + (c.bays ?? 0), 0);
}

const bayCount = (n: number) => `${n} ${n === 1 ? 'bay' : 'bays'}`;

/** Why the wizard did not take a step, in the operator's words. */
function refusal(s: WizardState, step: WizardAction): string {
  const action = step.action;
  if (s.step !== 'mapping') return action === 'undo' ? 'nothing to undo' : 'the bays are mapped: name the map and save it';
  // A label already given to another bay is the one refusal of a step that could otherwise be taken.
  const typed = step.action === 'accept' && s.proposal ? step.label : step.action === 'assign_preexisting' && !s.proposal && s.preexisting.some((p) => p.lane === step.lane) ? step.label : undefined;
  const label = typed ? labelRefusal(s, typed) : undefined;
  if (label) return label;
  if (action === 'accept') return 'insert a drive into the bay first';
  if (action === 'finish') return s.proposal ? 'accept or undo the detected bay first' : 'map at least one bay first';
  if (action === 'skip') return 'accept or undo the detected bay first';
  if (action === 'undo') return 'nothing to undo';
  if (action === 'grid') return 'a grid needs at least one row and one column, and at most 512 bays';
  if (action === 'assign_preexisting') return s.proposal ? 'accept or undo the detected bay first' : 'that drive is not waiting to be assigned';
  return 'not now';
}
