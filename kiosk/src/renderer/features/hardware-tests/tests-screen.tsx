import { useEffect, useRef } from 'react';
import type { TestWireId } from '../../contract.js';
import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { NextStep } from '../shell/next-step.js';
import { AudioTest } from './audio-test.js';
import { DisplayTest } from './display-test.js';
import { InfoTest } from './info-test.js';
import { KeyboardTest } from './keyboard-test.js';
import { STATUS_TEXT, TEST_IDS, TEST_INFO } from './test-catalog.js';
import { TouchTest } from './touch-test.js';
import { UsbTest } from './usb-test.js';
import { WebcamTest } from './webcam-test.js';

function Runner({ id }: { id: TestWireId }) {
  switch (id) {
    case 'keyboard':
      return <KeyboardTest />;
    case 'display':
      return <DisplayTest />;
    case 'touchscreen':
      return <TouchTest />;
    case 'usb_ports':
      return <UsbTest />;
    case 'webcam':
      return <WebcamTest />;
    case 'audio':
      return <AudioTest />;
    case 'battery':
    case 'wifi_adapter':
    case 'bluetooth':
      return <InfoTest id={id} />;
  }
}

/** Every wire id with its recorded status; choosing one opens its runner beside the list. */
export function TestsScreen() {
  const actions = useActions();
  const open = useKiosk((s) => s.tests.open) ?? TEST_IDS[0];
  const tests = useKiosk((s) => s.agent.snapshot?.tests);
  const send = useKiosk((s) => s.tests.send);
  const sync = useKiosk((s) => s.agent.snapshot?.reports.tests);
  const panel = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    // Focus follows the chosen test (not on first render, where the step heading has focus).
    if (first.current) first.current = false;
    else panel.current?.focus();
  }, [open]);
  return (
    <div className="tests">
      <ul className="test-list" aria-label="Hardware tests">
        {TEST_IDS.map((id) => {
          const status = tests?.[id]?.status ?? 'not_started';
          return (
            <li key={id}>
              <button type="button" className={id === open ? 'test-item current' : 'test-item'} aria-current={id === open ? 'true' : undefined} onClick={() => actions.openTest(id)} data-test={id}>
                <span>{TEST_INFO[id].title}</span>
                <span className={`badge ${status}`}>{STATUS_TEXT[status]}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <section className="test-panel" aria-labelledby="test-title">
        <h2 id="test-title" ref={panel} tabIndex={-1}>
          {TEST_INFO[open].title}
        </h2>
        <p className="how">{TEST_INFO[open].how}</p>
        <Runner key={open} id={open} />
        <p className="muted small" role="status">
          {send.state === 'failed' ? <span className="error">Not saved: {send.error}</span> : syncText(sync)}
        </p>
      </section>
      <NextStep to="notes" />
    </div>
  );
}

/** The agent's delivery of the test snapshot to the service, in words. */
export function syncText(sync: string | undefined): string {
  switch (sync) {
    case 'waiting':
      return 'Results are kept and will be sent once the hardware report is acknowledged.';
    case 'sending':
      return 'Sending results to the service…';
    case 'sent':
      return 'Results sent to the service.';
    case 'failed':
      return 'The service did not take the results yet; the agent will retry.';
    default:
      return '';
  }
}
