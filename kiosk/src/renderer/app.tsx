import { ConnectionBanner, ConnectingScreen } from './features/connecting/connecting-screen.js';
import { gateOf } from './features/locked/gate.js';
import { LockedScreen } from './features/locked/locked-screen.js';
import { Workspace } from './features/shell/workspace.js';
import { useKiosk } from './store/use-kiosk.js';

/**
 * Picks the screen from the agent's state alone: nothing heard yet or the agent still checking ->
 * connecting; locked with a denial -> locked; unlocked -> the workspace. A stream lost later keeps
 * the last state on screen under a banner, so an erase in progress does not vanish from view.
 */
export function App() {
  const connection = useKiosk((s) => s.agent.connection);
  const snapshot = useKiosk((s) => s.agent.snapshot);
  if (!snapshot) return <ConnectingScreen connection={connection} gate={undefined} />;
  const gate = gateOf(snapshot);
  const banner = connection.status === 'live' ? null : <ConnectionBanner connection={connection} />;
  if (gate.state === 'checking') return <ConnectingScreen connection={connection} gate={gate} />;
  return (
    <>
      {banner}
      {gate.state === 'denied' ? <LockedScreen gate={gate} /> : <Workspace />}
    </>
  );
}
