import type { TestWireId } from '../../contract.js';
import { useKiosk } from '../../store/use-kiosk.js';
import { Verdict } from './verdict.js';

type Rec = Record<string, unknown>;
const list = (v: unknown): Rec[] => (Array.isArray(v) ? (v as Rec[]) : []);

/**
 * Checks read off the hardware report: battery health (the operator judges it), and the Wi-Fi and
 * Bluetooth adapters (detected or not applicable; recorded by themselves when the report has them).
 */
export function InfoTest({ id }: { id: Extract<TestWireId, 'battery' | 'wifi_adapter' | 'bluetooth'> }) {
  const fp = useKiosk((s) => s.agent.snapshot?.fingerprint) as Rec | undefined;
  const section = id === 'battery' ? list(fp?.batteries) : id === 'wifi_adapter' ? list(fp?.wifi_adapters) : list(fp?.bluetooth);
  const describe = (x: Rec) =>
    id === 'battery'
      ? [x.health_pct !== undefined ? `${String(x.health_pct)}% of design capacity` : 'health unknown', x.cycle_count !== undefined ? `${String(x.cycle_count)} charge cycles` : undefined, [x.manufacturer, x.model].filter(Boolean).join(' ')]
          .filter(Boolean)
          .join(' · ')
      : [x.name, x.manufacturer, x.mac].filter(Boolean).join(' · ');
  return (
    <div className="runner">
      {!fp ? (
        <p className="muted">The agent has not reported the hardware; judge it yourself.</p>
      ) : section.length === 0 ? (
        <p>None found in the hardware report.</p>
      ) : (
        <ul className="info-list">
          {section.map((x, i) => (
            <li key={i}>{describe(x) || 'present'}</li>
          ))}
        </ul>
      )}
      <Verdict
        id={id}
        options={id === 'battery' ? ['passed', 'failed', 'not_applicable'] : ['detected', 'failed', 'not_applicable']}
        detail={section.length > 0 ? section.map(describe).join('; ') : undefined}
      />
    </div>
  );
}
