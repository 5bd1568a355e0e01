import { STATION_STEPS, STEPS, type Step } from '../../store/state.js';

/** Each step's name in the step list, its heading and its "Next" button. */
export const STEP_LABELS: Record<Step, string> = { station: 'Station', settings: 'Station settings', machine: 'Machine', tests: 'Hardware tests', notes: 'Notes', drives: 'Drives', erase: 'Erase', validate: 'Validate a drive' };

/** The workspace's steps: a hotswap station's (station first, no Drives or Erase), else the single machine's. */
export function stepsFor(isStation: boolean): readonly Step[] {
  return isStation ? STATION_STEPS : STEPS;
}

/** The step to show: the operator's, unless this workspace has no such step (then its first). */
export function shownStep(step: Step, steps: readonly Step[]): Step {
  // "Validate a drive" opens from the Drives step, so wherever that step exists.
  if (step === 'validate' && steps.includes('drives')) return step;
  return steps.includes(step) ? step : (steps[0] ?? step);
}
