import { useEffect, useState } from 'react';
import type { FloorBoard, FloorBoardDrive, FloorBoardMachine } from '@erasure/shared/contracts';
import { PageHeader } from '../components/ui.js';
import { formatBytes, formatDuration } from '../format.js';
import { bayFreeAt, bySite, driveName, isRunning, lotLines, machineName, machineStatus, percentOf, problemsOf, STAGE_TEXT } from './floor-view.js';

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });
const rate = (bytesPerSecond: number | undefined) => (bytesPerSecond ? `${formatBytes(bytesPerSecond)}/s` : '');

/**
 * The floor view (issue 32): every machine and station erasing now, grouped by site, live over
 * Server-Sent Events. `?wall=1` is the wall screen: larger type, nothing to click. The browser's
 * EventSource reconnects on its own; the page says so quietly while it does.
 */
export function FloorPage() {
  const wall = new URLSearchParams(window.location.search).get('wall') === '1';
  const [board, setBoard] = useState<FloorBoard | null>(null);
  const [connected, setConnected] = useState(true);

  useEffect(() => {
    const events = new EventSource('/app/api/floor/events');
    events.addEventListener('board', (e) => {
      setBoard(JSON.parse((e as MessageEvent<string>).data) as FloorBoard);
      setConnected(true);
    });
    events.onerror = () => setConnected(false);
    return () => events.close();
  }, []);

  useEffect(() => {
    document.body.classList.toggle('floor-wall', wall);
    return () => document.body.classList.remove('floor-wall');
  }, [wall]);

  const problems = board ? problemsOf(board, clock) : [];
  const lots = board ? lotLines(board) : [];
  return (
    <div className={wall ? 'floor floor-wall-view' : 'floor'} data-screen="floor">
      <PageHeader
        title="Floor"
        subtitle={board ? `Live · updated ${clock(board.now)}` : 'Connecting…'}
        actions={!connected && <span className="floor-reconnecting" role="status">Reconnecting…</span>}
      />
      {problems.length > 0 && (
        <section className="floor-problems" aria-label="Needs attention">
          {problems.map((p) => (
            <p key={p.key} className={`floor-problem floor-problem-${p.tone}`} role="alert">
              {p.text}
            </p>
          ))}
        </section>
      )}
      {lots.length > 0 && (
        <section className="card floor-lots" aria-label="Lots">
          <h2>Lots</h2>
          <table>
            <thead>
              <tr>
                <th>Lot</th>
                <th>Done</th>
                <th>Running</th>
                <th>Waiting</th>
                <th>Forecast</th>
              </tr>
            </thead>
            <tbody>
              {lots.map((l) => (
                <tr key={l.lot} data-lot={l.lot}>
                  <td>{l.lot}</td>
                  <td>{l.done}</td>
                  <td>{l.running}</td>
                  <td>{l.waiting}</td>
                  <td>{forecastText(l.secondsLeft, board!)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {board && board.machines.length === 0 && <p className="empty">No machine is erasing right now. Machines appear here as soon as they start reporting.</p>}
      {board &&
        bySite(board).map((group) => (
          <section key={group.site} className="floor-site" aria-label={group.site}>
            <h2 className="floor-site-name">{group.site}</h2>
            <div className="floor-machines">
              {group.machines.map((m) => (
                <MachineCard key={m.machine_id} machine={m} wall={wall} />
              ))}
            </div>
          </section>
        ))}
    </div>
  );
}

function forecastText(seconds: number | undefined, board: FloorBoard): string {
  if (seconds === undefined) return 'Not known yet';
  if (seconds === 0) return 'Done';
  return `About ${clock(new Date(Date.parse(board.now) + seconds * 1000).toISOString())}`;
}

function MachineCard({ machine, wall }: { machine: FloorBoardMachine; wall: boolean }) {
  return (
    <article className={machine.lost_contact ? 'card floor-machine lost' : 'card floor-machine'} data-machine={machine.machine_id}>
      <header className="floor-machine-head">
        <strong>{machineName(machine)}</strong>
        <span className="muted">
          {machineStatus(machine, clock, formatDuration)}
        </span>
      </header>
      <ul className="floor-drives">
        {machine.drives.map((d) => (
          <DriveRow key={d.device} drive={d} freeAt={bayFreeAt(machine, d)} />
        ))}
      </ul>
      {!wall && (
        <details className="floor-details">
          <summary>Details</summary>
          <p className="muted small">
            Machine id {machine.machine_id} · {machine.kind}
            {machine.drives.map((d) => ` · ${d.device}${d.method ? ` (${d.method})` : ''}`).join('')}
          </p>
        </details>
      )}
    </article>
  );
}

function DriveRow({ drive, freeAt }: { drive: FloorBoardDrive; freeAt: string | undefined }) {
  const percent = percentOf(drive);
  const stage = drive.result ? (drive.result.status === 'completed' ? 'Erased' : drive.result.status === 'failed' ? 'Failed' : 'Cancelled') : STAGE_TEXT[drive.stage];
  const pass = isRunning(drive) && drive.stage === 'write' && drive.passes && drive.passes > 1 ? ` · pass ${drive.pass} of ${drive.passes}` : '';
  return (
    <li className="floor-drive" data-stage={drive.result ? drive.stage : drive.stage} data-running={isRunning(drive) ? 'yes' : 'no'} data-serial={drive.serial ?? ''}>
      <div className="floor-drive-name">{driveName(drive)}</div>
      <div className="floor-drive-stage">
        {stage}
        {pass}
        {drive.result?.certificate_number ? ` · ${drive.result.certificate_number}` : ''}
      </div>
      {percent !== undefined && (
        <div className="bar" role="progressbar" aria-label={`${driveName(drive)} progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(percent)}>
          <div className="fill" style={{ width: `${percent}%` }} />
        </div>
      )}
      {/* A stalled drive's last rate and time left no longer hold: say since when it stands still instead. */}
      {isRunning(drive) && drive.stalled_since && <div className="floor-drive-rate floor-drive-stalled">No progress since {clock(drive.stalled_since)}</div>}
      {isRunning(drive) && !drive.stalled_since && (
        <div className="floor-drive-rate muted">
          {[rate(drive.bytes_per_second), drive.eta_seconds !== undefined ? `${formatDuration(drive.eta_seconds)} left` : '', freeAt ? `bay free about ${clock(freeAt)}` : '']
            .filter(Boolean)
            .join(' · ')}
        </div>
      )}
    </li>
  );
}
