import { runErase, selectDrives, type AgentEnv } from '../agent.js';
import type { BayEvent } from '../station/bay-machine.js';
import type { StationPorts } from '../station/station.js';

/**
 * A station bay's work as an agent session: product hotswap, starting at check-in (the boot's
 * health, verify and asset report ran once for the chassis), one drive, reported back as bay
 * events. `signal` stops the erase when the drive is pulled (or the operator cancels); the
 * failed wipe result is still reported, saying why.
 */
export function stationBayRunner(env: AgentEnv, boot: { account: string; recordId: string }): StationPorts['runBay'] {
  return async ({ device, bay, signal, emit }) => {
    const selection = await selectDrives(env, [device]);
    if (!selection.ok) {
      emit({ type: 'refused', reason: selection.reason });
      return;
    }
    // What the bay shows: the technique in words ("Overwrite", "Cryptographic Erase"), not the method id.
    const method = selection.drives[0]?.plan.ok ? selection.drives[0].plan.technique : 'Overwrite';
    let verifying = false;
    let allowed = false;
    const session = await runErase(
      env,
      selection.drives,
      {
        onState: (s) => {
          if (s.phase === 'erase' && !allowed) {
            allowed = true;
            emit({ type: 'checkin_allowed', jobId: s.jobIds[0] ?? '' });
          }
          if (s.phase === 'denied') emit({ type: 'checkin_denied', reason: s.reason });
        },
        onProgress: (p) => {
          if (p.stage === 'verify') {
            if (!verifying) emit({ type: 'verify_started' });
            verifying = true;
            emit({ type: 'verify_progress', percent: p.percent ?? 0 });
            return;
          }
          const rate = p.bytesPerSecond;
          const eta = rate && p.bytesTotal > p.bytesDone ? Math.round((p.bytesTotal - p.bytesDone) / rate) : undefined;
          const event: BayEvent = { type: 'progress', progress: { method, pass: p.pass, percent: p.percent ?? 0, ...(rate ? { bytesPerSecond: rate } : {}), ...(eta !== undefined ? { etaSeconds: eta } : {}) } };
          emit(event);
        },
      },
      // The pull-out stops the erase, not the gateway calls: the failed result still goes out at once.
      { account: boot.account, recordId: boot.recordId, eraseSignal: signal, product: 'hotswap', bay },
    );
    if (session.phase === 'denied') return; // said through onState
    const report = session.phase === 'done' || session.phase === 'failed' ? session.reports[0] : undefined;
    if (report?.outcome.failureCode === 'removed') emit({ type: 'removed' });
    else if (report?.outcome.ok) emit({ type: 'erase_passed' });
    else emit({ type: 'erase_failed', reason: report ? `${report.outcome.failureCode ?? 'failed'}: ${report.outcome.verification}` : session.phase === 'failed' ? session.reason : 'the session ended without a result' });
  };
}
