/**
 * The agent's loopback contract as the renderer uses it: types and the TypeBox schemas that check
 * what arrives (STYLE D: parse everything from the wire as unknown). Imported from the contract
 * modules themselves, not `@erasure/shared`'s index, which also exports node-only signing helpers
 * that a browser bundle cannot load; the relative path works for Vite, vitest and tsc alike.
 */
import { Value } from '@sinclair/typebox/value';
import { AgentState as AgentStateSchema, DriveProgress as DriveProgressSchema, IntentAccepted as IntentAcceptedSchema } from '../../../shared/src/contracts/agent-local.js';
import type { AgentState } from '../../../shared/src/contracts/agent-local.js';

export type { AgentDrive, AgentIntent, AgentState, BootPhase, DrivePlan, DriveProgress, DriveResult, ReportSync } from '../../../shared/src/contracts/agent-local.js';
export type { Fingerprint, TestResult, TestSnapshot, TestStatus, TestWireId } from '../../../shared/src/contracts/hardware.js';

/** The state as the kiosk reads it: the agent's contract, machine summary (`fingerprint`) included. */
export type KioskAgentState = AgentState;

/** Checks an SSE `state` payload; anything else is dropped, never half-applied. */
export function parseAgentState(data: unknown): KioskAgentState | undefined {
  return Value.Check(AgentStateSchema, data) ? data : undefined;
}

/** Checks an SSE `progress` payload. */
export function parseDriveProgress(data: unknown): import('../../../shared/src/contracts/agent-local.js').DriveProgress | undefined {
  return Value.Check(DriveProgressSchema, data) ? data : undefined;
}

/** Checks the 200 answer of an intent. */
export function parseIntentAccepted(data: unknown): boolean {
  return Value.Check(IntentAcceptedSchema, data);
}
