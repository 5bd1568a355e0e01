import { abortableSleep, machinePolicy, planForMethod, runErase, selectDrives, type AgentEnv, type RunFrom } from '../agent.js';
import { methodFor } from '../session/erasure-policy.js';
import { readErasurePolicy } from './erasure-policy-client.js';
import { REMOVED_DURING_ERASE } from '../erase/erase-drive.js';
import { discoverDrive, type DiscoveredDrive } from '../probes/discover-drives.js';
import { driveChanged } from '../probes/drive-identity.js';
import { seenAs } from '../session/not-erased.js';
import type { BayEvent } from '../station/bay-machine.js';
import type { StationPorts } from '../station/station.js';

/**
 * The inserted drive with its erase plan, probed on its own: `selectDrives` would list and probe
 * every drive of the machine (lsblk, smartctl) while the other bays erase. The plan is the one
 * `selectDrives` makes for that drive; a device lsblk does not list is refused. Simulate mode has
 * no tools to spare: it keeps the listing.
 */
export async function selectInserted(env: AgentEnv, device: string): Promise<{ ok: true; drives: DiscoveredDrive[] } | { ok: false; reason: string; unplanned?: DiscoveredDrive }> {
  if (env.config.ERASURE_SIMULATE) return selectDrives(env, [device]);
  const found = await discoverDrive(env.run, device, {}, env.sys);
  if ('listed' in found) return { ok: false, reason: found.reason };
  // A drive seen but given no plan (locked, a locked SED…) is returned with it: it still gets a result.
  return found.plan.ok ? { ok: true, drives: [found] } : { ok: false, reason: `${device}: ${found.plan.reason}`, unplanned: found };
}

/**
 * A drive the bay will not erase still gets its row in the cloud (issue 30 item 7): it is checked
 * in as every bay's drive is (a station licence), and reported `failed` with its reason and
 * disposition, nothing written. A denied check-in is said as for any bay, and nothing is reported.
 */
async function reportNotErased(env: AgentEnv, drive: DiscoveredDrive, refusal: { reason: string; disposition?: 'destroy' }, from: RunFrom, emit: (e: BayEvent) => void): Promise<Attempt> {
  const session = await runErase(
    env,
    [],
    {
      onState: (s) => {
        if (s.phase === 'denied' && !s.unreachable) emit({ type: 'checkin_denied', reason: s.reason });
      },
    },
    { ...from, notErased: [{ ...seenAs(drive), reason: refusal.reason, disposition: refusal.disposition ?? 'review' }] },
  );
  if (session.phase === 'denied') return session.unreachable ? { unreachable: session.reason } : OVER; // a denial was said through onState
  const reported = (session.phase === 'done' || session.phase === 'failed') && session.reports.length > 0;
  emit({ type: 'refused', reason: `${drive.device}: ${refusal.reason}${reported ? ' (not erased; reported to the erasure service)' : ''}` });
  return OVER;
}

/**
 * A station bay's work as an agent session: product hotswap, starting at check-in (the boot's
 * health, verify and asset report ran once for the chassis), one drive, reported back as bay
 * events. `signal` stops the bay's work when the drive is pulled or the operator cancels: before
 * the check-in is sent, nothing is sent; after, the erase stops (or never starts) and its wipe
 * result still goes out, `failed` saying "removed during erase", or `cancelled`.
 *
 * The work is bound to the disk the bay probed (`identity`): right before the check-in and again
 * right before the first write the node is read again, and a node that is gone or names another
 * disk (a pull udev has not settled yet; the kernel giving the name to the next disk seated,
 * perhaps in another bay) stops the work as a pull-out, nothing written.
 *
 * A station runs lights-out (issue 32): a drive seated while the gateway or the cloud is down is
 * not failed. Its bay waits, saying so, and checks it in once the service answers; then it is
 * erased and reported as any other. Results the service could not take are kept in the outbox.
 */
export function stationBayRunner(env: AgentEnv, boot: { account: string; recordId: string }): StationPorts['runBay'] {
  return async (job) => {
    const { signal, emit } = job;
    const wait = abortableSleep(env.sleep, signal);
    const since = env.now().toISOString();
    for (let attempts = 1; ; attempts += 1) {
      const attempt = await runBayOnce(env, boot, job);
      if (!('unreachable' in attempt) || signal.aborted) return;
      // No answer from the erasure service: nothing was erased (spec: no allow, no wipe). The
      // drive waits in its bay, untouched, and the bay asks again, from the policy read on, until
      // an answer comes, the drive is pulled or the operator cancels. A check-in whose answer was
      // lost on its way back may have spent a unit of quota at the cloud; its job is never used.
      const delayMs = cloudWaitMs(env, attempts);
      emit({ type: 'cloud_unreachable', wait: { reason: attempt.unreachable, attempts, since, retryAt: new Date(env.now().getTime() + delayMs).toISOString() } });
      await wait(delayMs);
      if (signal.aborted) return;
    }
  };
}

/** How a bay's run ended: over (its outcome said through bay events), or waiting for an answer. */
type Attempt = { readonly over: true } | { readonly unreachable: string };
const OVER: Attempt = { over: true };

/** Waits between a bay's unanswered tries: 5 s, doubling, at most a minute (SessionLimits can say otherwise). */
export function cloudWaitMs(env: Pick<AgentEnv, 'limits'>, attempts: number): number {
  const base = env.limits?.cloudWaitBaseMs ?? 5_000;
  const cap = env.limits?.cloudWaitCapMs ?? 60_000;
  return Math.min(cap, base * 2 ** Math.min(attempts - 1, 16));
}

/** One try at a bay's work: the policy read, the check-in, the erase and its result. */
async function runBayOnce(env: AgentEnv, boot: { account: string; recordId: string }, { device, identity, bay, signal, emit }: Parameters<StationPorts['runBay']>[0]): Promise<Attempt> {
  // A drive pulled (or cancelled) before its check-in went out is never checked in: no quota spent.
  if (signal.aborted) return OVER;
  const simulated = env.config.ERASURE_SIMULATE;
  // Gone before it could be probed: there is no disk to bind the work to.
  if (!identity && !simulated) {
    emit({ type: 'removed' });
    return OVER;
  }
  // The station erases under its token's policy (issue 29), read for each drive as its check-in
  // is: a bay without a policy it can read, or whose default is not allowed, erases nothing.
  const policy = await readErasurePolicy(env, signal);
  const method = methodFor(policy, undefined);
  // The account's health grade table and self-test switch come with the same policy (issue 30 item 6).
  const grading = policy.ok ? { healthGrading: policy.grading } : {};
  if (signal.aborted) return OVER;
  // A token or gateway that says no to the policy read is the denial a check-in would get: the bay says it the same way.
  if (!policy.ok && policy.unreachable) return { unreachable: policy.denial ?? policy.reason };
  if (!policy.ok && policy.denial) {
    emit({ type: 'checkin_denied', reason: policy.denial });
    return OVER;
  }
  if (!method.ok) {
    emit({ type: 'refused', reason: method.reason });
    return OVER;
  }
  // The pull-out stops the erase, not the gateway calls: the failed result still goes out at once.
  const from: RunFrom = { account: boot.account, recordId: boot.recordId, eraseSignal: signal, product: 'hotswap', bay, ...grading, ...(identity && !simulated ? { boundTo: identity } : {}) };
  const selection = await selectInserted(env, device);
  if (signal.aborted) return OVER;
  // Not listed because it left: said as the pull-out it is, not as a refusal.
  if (!selection.ok && identity && (await driveChanged(env.sys, identity))) {
    emit({ type: 'removed' });
    return OVER;
  }
  if (!selection.ok && !selection.unplanned) {
    emit({ type: 'refused', reason: selection.reason });
    return OVER;
  }
  // A station erases with its policy's default method, planned for this drive with what the
  // machine adds to every plan (a simulated rate, this boot's freeze lock removal). With the
  // account's ATA master passwords (issue 30 item 1), a drive locked with an unknown user password
  // is planned for its Security Erase, which tries them as the kiosk's does. A drive that gets no
  // plan is not erased, and still gets its result.
  const inserted = selection.ok ? selection.drives[0] : selection.unplanned;
  const planned = inserted && policy.ok ? planForMethod(inserted.capabilities, await machinePolicy(env), { erasure: policy.policy, methodId: method.method, ...(policy.masters ? { ataMasterPasswords: true } : {}) }) : inserted?.plan;
  if (!inserted || !planned) {
    emit({ type: 'refused', reason: `${device}: not a drive of this machine` });
    return OVER;
  }
  if (!planned.ok) return reportNotErased(env, inserted, planned, from, emit);
  const drives = [{ ...inserted, plan: planned }];
  // What the bay shows: the technique in words ("Overwrite", "Cryptographic Erase"), not the method id.
  const technique = planned.technique;
  // A firmware erase runs inside the drive once its command went out: the bay offers no cancel.
  const firmware = planned.method !== 'overwrite';
  let verifying = false;
  let allowed = false;
  // The erase reports bytes as it goes and its percent and rate only at a pass's end: the bay
  // works them out from the bytes and the time since the pass began, so its bar moves.
  let stage = { key: '', startedMs: 0 };
  const measured = (p: { stage: string; pass: number; bytesDone: number; bytesTotal: number; percent?: number; bytesPerSecond?: number }) => {
    const nowMs = env.now().getTime();
    if (stage.key !== `${p.stage}/${p.pass}`) stage = { key: `${p.stage}/${p.pass}`, startedMs: nowMs };
    const seconds = (nowMs - stage.startedMs) / 1000;
    const percent = p.percent ?? (p.bytesTotal > 0 ? (100 * p.bytesDone) / p.bytesTotal : 0);
    const rate = p.bytesPerSecond ?? (seconds >= 1 && p.bytesDone > 0 ? p.bytesDone / seconds : undefined);
    return { percent, rate };
  };
  const session = await runErase(
    env,
    drives,
    {
      onState: (s) => {
        if (s.phase === 'erase' && !allowed) {
          allowed = true;
          emit({ type: 'checkin_allowed', jobId: s.jobIds[0] ?? '', ...(firmware ? { firmware } : {}) });
        }
        if (s.phase === 'denied' && !s.unreachable) emit({ type: 'checkin_denied', reason: s.reason });
      },
      onProgress: (p) => {
        if (p.stage === 'verify') {
          if (!verifying) emit({ type: 'verify_started' });
          verifying = true;
          emit({ type: 'verify_progress', percent: measured(p).percent });
          return;
        }
        const { percent, rate } = measured(p);
        const eta = rate && p.bytesTotal > p.bytesDone ? Math.round((p.bytesTotal - p.bytesDone) / rate) : undefined;
        const event: BayEvent = { type: 'progress', progress: { method: technique, pass: p.pass, percent, ...(rate ? { bytesPerSecond: rate } : {}), ...(eta !== undefined ? { etaSeconds: eta } : {}) } };
        emit(event);
      },
    },
    { ...from, ...(policy.ok && policy.masters ? { ataMasterPasswords: policy.masters } : {}) },
  );
  if (session.phase === 'denied') return session.unreachable ? { unreachable: session.reason } : OVER; // a denial was said through onState
  const report = session.phase === 'done' || session.phase === 'failed' ? session.reports[0] : undefined;
  // Stopped before its check-in: nothing was sent, and the bay already says why.
  if (!report && signal.aborted) return OVER;
  // Withdrawn before its check-in because the node no longer names the probed disk: a pull-out.
  if (!report && session.phase === 'failed' && session.reason.startsWith(`${REMOVED_DURING_ERASE} `)) {
    emit({ type: 'removed' });
    return OVER;
  }
  if (report?.outcome.failureCode === 'removed') emit({ type: 'removed' });
  else if (report?.outcome.ok) emit({ type: 'erase_passed' });
  else emit({ type: 'erase_failed', reason: report ? `${report.outcome.failureCode ?? 'failed'}: ${report.outcome.verification}` : session.phase === 'failed' ? session.reason : 'the session ended without a result' });
  return OVER;
}
