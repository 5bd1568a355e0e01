import { parsed, unparsable, type ParseResult } from './parse-result.js';
import { colonPairs } from './text.js';
import { compact } from './unknown.js';

/** A battery as `upower -i` describes it. */
export interface UpowerBattery {
  readonly nativePath?: string;
  readonly vendor?: string;
  readonly model?: string;
  readonly serial?: string;
  readonly state?: string;
  readonly technology?: string;
  readonly energyFullWh?: number;
  readonly energyFullDesignWh?: number;
  readonly chargePct?: number;
  /** Full-charge capacity as a share of design capacity: the battery health figure. */
  readonly capacityPct?: number;
}

const number = (text: string | undefined) => {
  const m = /^(-?\d+(?:\.\d+)?)/.exec(text ?? '');
  return m?.[1] ? Number(m[1]) : undefined;
};

/** Parses `upower -i /org/freedesktop/UPower/devices/battery_BAT0`. */
export function parseUpower(text: string): ParseResult<UpowerBattery> {
  if (!/^\s+battery\s*$/m.test(text)) return unparsable('upower output describes no battery');
  const f = colonPairs(text);
  return parsed(
    compact<UpowerBattery>({
      nativePath: f.get('native-path'),
      vendor: f.get('vendor'),
      model: f.get('model'),
      serial: f.get('serial'),
      state: f.get('state'),
      technology: f.get('technology'),
      energyFullWh: number(f.get('energy-full')),
      energyFullDesignWh: number(f.get('energy-full-design')),
      chargePct: number(f.get('percentage')),
      capacityPct: number(f.get('capacity')),
    }),
  );
}
