/**
 * The agent's loopback contract as the renderer uses it: types and the TypeBox schemas that check
 * what arrives (STYLE D: parse everything from the wire as unknown). Imported from
 * `@erasure/shared/contracts`, the browser entry point: the package index also exports the
 * node-only signing helpers, which a browser bundle cannot load.
 */
import { Value } from '@sinclair/typebox/value';
import { AgentState as AgentStateSchema, DriveProgress as DriveProgressSchema, IntentAccepted as IntentAcceptedSchema, JobChoices as JobChoicesSchema, JobDetailsSaved as JobDetailsSavedSchema } from '@erasure/shared/contracts';
import type { JobChoices, JobDetailsSaved } from '@erasure/shared/contracts';
import type { AgentIntent, AgentState } from '@erasure/shared/contracts';

export type { AgentDrive, AgentIntent, AgentState, BootPhase, DrivePlan, DriveProgress, DriveResult, ReportSync, ErasureChoice } from '@erasure/shared/contracts';
export type { JobChoices, JobDetailsSaved, KioskJobDetails, JobDetailField } from '@erasure/shared/contracts';
export { JOB_DETAIL_FIELDS, JOB_DETAIL_LABELS, jobDetailProblem } from '@erasure/shared/contracts';
export type { Fingerprint, TestResult, TestSnapshot, TestStatus, TestWireId } from '@erasure/shared/contracts';
export type { BayStateName, GridShape, StationBayView, StationConnector, StationView, WizardAction, WizardView } from '@erasure/shared/contracts';

/** The station's intents (wizard steps, settings, one bay's confirm, cancel or locate), out of the agent's union. */
export type StationIntent = Extract<AgentIntent, { type: `station_${string}` | `bay_${string}` }>;

/** The state as the kiosk reads it: the agent's contract, machine summary (`fingerprint`) included. */
export type KioskAgentState = AgentState;

/** Checks an SSE `state` payload; anything else is dropped, never half-applied. */
export function parseAgentState(data: unknown): KioskAgentState | undefined {
  return Value.Check(AgentStateSchema, data) ? data : undefined;
}

/** Checks an SSE `progress` payload. */
export function parseDriveProgress(data: unknown): import('@erasure/shared/contracts').DriveProgress | undefined {
  return Value.Check(DriveProgressSchema, data) ? data : undefined;
}

/** Checks the 200 answer of an intent. */
export function parseIntentAccepted(data: unknown): boolean {
  return Value.Check(IntentAcceptedSchema, data);
}

/** Checks the agent's answer to saved job details (issue 31 item 6). */
export function parseJobDetailsSaved(data: unknown): JobDetailsSaved | undefined {
  return Value.Check(JobDetailsSavedSchema, data) ? data : undefined;
}

/** Checks the account's customers and lots as the agent relays them. */
export function parseJobChoices(data: unknown): JobChoices | undefined {
  return Value.Check(JobChoicesSchema, data) ? data : undefined;
}
