import type { Fingerprint, TestResult as TestResultValue, TestStatus, TestWireId } from '../../contract.js';

/** Every wire id of spec 2, in the order a technician works through them. */
export const TEST_IDS = ['keyboard', 'display', 'touchscreen', 'usb_ports', 'webcam', 'audio', 'battery', 'wifi_adapter', 'bluetooth'] as const satisfies readonly TestWireId[];

// Compile-time check that no wire id is missing: the runtime list cannot import shared's (it pulls in node code).
const exhaustive: Exclude<TestWireId, (typeof TEST_IDS)[number]> extends never ? true : false = true;
void exhaustive;

export interface TestInfo {
  readonly title: string;
  /** What the technician does, in one sentence. */
  readonly how: string;
}

export const TEST_INFO: Readonly<Record<TestWireId, TestInfo>> = {
  keyboard: { title: 'Keyboard', how: 'Press every key; each one lights up on the layout when the laptop sees it.' },
  display: { title: 'Display', how: 'Full-screen colours: look for dead pixels, lines or blotches. Any key or click shows the next colour.' },
  touchscreen: { title: 'Touchscreen', how: 'Touch every square of the grid. No touchscreen? Mark it not applicable.' },
  usb_ports: { title: 'USB ports', how: 'Plug a USB stick or mouse into each port in turn. Count each port that works and each that does not.' },
  webcam: { title: 'Webcam', how: 'Check that the camera shows a live picture.' },
  audio: { title: 'Audio', how: 'Play the tone on each side and listen. Turn the volume up first if needed.' },
  battery: { title: 'Battery', how: 'Battery health as the machine reports it.' },
  wifi_adapter: { title: 'Wi-Fi adapter', how: 'Detected from the hardware report.' },
  bluetooth: { title: 'Bluetooth', how: 'Detected from the hardware report.' },
};

/** Plain words for each status, for badges and screen readers. */
export const STATUS_TEXT: Readonly<Record<TestStatus, string>> = {
  not_started: 'Not tested',
  passed: 'Passed',
  failed: 'Failed',
  not_applicable: 'Not applicable',
  detected: 'Detected',
};

const present = (v: unknown) => Array.isArray(v) && v.length > 0;

/**
 * Detection-only checks read straight off the fingerprint (spec 2: `detected` for detection-only
 * checks): present means `detected`, absent `not_applicable`. A machine without a battery has
 * nothing to test either. This maps what the agent reported; it judges nothing.
 */
export function detectedResults(fp: Fingerprint | undefined): Partial<Record<TestWireId, TestResultValue>> {
  if (!fp) return {};
  const f = fp as Record<string, unknown>;
  const wifi = f.wifi_adapters as Array<{ name?: string }> | undefined;
  const bt = f.bluetooth as Array<{ name?: string }> | undefined;
  const names = (list: Array<{ name?: string }> | undefined) => (list ?? []).map((x) => x.name).filter(Boolean).join(', ');
  return {
    wifi_adapter: present(wifi) ? { status: 'detected', detail: names(wifi) || 'adapter present' } : { status: 'not_applicable', detail: 'no Wi-Fi adapter found' },
    bluetooth: present(bt) ? { status: 'detected', detail: names(bt) || 'adapter present' } : { status: 'not_applicable', detail: 'no Bluetooth adapter found' },
    ...(present(fp.batteries) ? {} : { battery: { status: 'not_applicable', detail: 'no battery found' } as const }),
  };
}
