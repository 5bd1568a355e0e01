import { useState } from 'react';
import { useKiosk } from '../../store/use-kiosk.js';
import { Verdict } from './verdict.js';

/**
 * Plug a device into each port. The agent does not report USB plug events live, so the devices it
 * saw at boot are listed for reference and the operator counts the ports that worked.
 */
export function UsbTest() {
  const usb = useKiosk((s) => (s.agent.snapshot?.fingerprint as Record<string, unknown> | undefined)?.usb);
  const [working, setWorking] = useState(0);
  const [broken, setBroken] = useState(0);
  const devices = Array.isArray(usb) ? (usb as Array<{ name?: string; vendor?: string }>) : [];
  return (
    <div className="runner">
      <div className="row counters">
        <Counter label="Ports that work" value={working} onChange={setWorking} />
        <Counter label="Ports that do not" value={broken} onChange={setBroken} />
      </div>
      {devices.length > 0 && (
        <details>
          <summary>USB devices the machine reported at start-up ({devices.length})</summary>
          <ul>
            {devices.map((d, i) => (
              <li key={i}>{[d.vendor, d.name].filter(Boolean).join(' ') || 'unnamed device'}</li>
            ))}
          </ul>
        </details>
      )}
      <Verdict id="usb_ports" detail={working + broken > 0 ? `${working} working, ${broken} not working` : undefined} />
    </div>
  );
}

function Counter({ label, value, onChange }: { label: string; value: number; onChange: (n: number) => void }) {
  return (
    <div className="counter" role="group" aria-label={label}>
      <span>{label}</span>
      <button type="button" aria-label={`${label}: one less`} onClick={() => onChange(Math.max(0, value - 1))}>
        −
      </button>
      <output aria-live="polite">{value}</output>
      <button type="button" aria-label={`${label}: one more`} onClick={() => onChange(value + 1)}>
        +
      </button>
    </div>
  );
}
