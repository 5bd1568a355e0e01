import type { SmartHealth } from './health-evidence.js';
import type { DriveHealth } from './health-grade.js';
import { MAX_HEALTH_REASONS, MAX_PROFILE_REGIONS, type WireDriveHealth, type WireSmartSummary } from './contracts/wipe-health.js';

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
/** Whole, non-negative and inside the wire's bound: a counter a drive over-reports must not cost the whole result. */
const count = (v: number | undefined, max = 2 ** 48) => (v === undefined || !Number.isFinite(v) ? undefined : Math.min(max, Math.max(0, Math.round(v))));

function smartForWire(s: SmartHealth): WireSmartSummary {
  const fields: Record<string, unknown> = {
    protocol: s.protocol,
    passed: s.passed,
    power_on_hours: count(s.powerOnHours),
    percentage_used: count(s.percentageUsed, 255),
    reallocated_sectors: count(s.reallocatedSectors),
    pending_sectors: count(s.pendingSectors),
    offline_uncorrectable: count(s.offlineUncorrectable),
    crc_errors: count(s.crcErrors),
    media_errors: count(s.mediaErrors),
    critical_warning: count(s.criticalWarning, 255),
    grown_defects: count(s.grownDefects),
    uncorrected_errors: count(s.uncorrectedErrors),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as WireSmartSummary;
}

/**
 * A drive's health as the wipe result carries it (issue 30 item 6): the grade, its reasons and
 * the facts behind them, within the wire's bounds. A profile of more regions than the wire allows
 * is merged pairwise (by the slower of each pair, so a slow zone still shows).
 */
export function healthForWire(health: DriveHealth): WireDriveHealth {
  const { evidence, verdict } = health;
  let mbps = evidence.profile?.mbps;
  while (mbps && mbps.length > MAX_PROFILE_REGIONS) {
    const merged: (number | null)[] = [];
    for (let i = 0; i < mbps.length; i += 2) {
      const pair = mbps.slice(i, i + 2).filter((r): r is number => r !== null);
      merged.push(pair.length ? Math.min(...pair) : null);
    }
    mbps = merged;
  }
  const profile = evidence.profile;
  return {
    grade: verdict.grade,
    reasons: [...(verdict.note ? [verdict.note] : []), ...verdict.reasons.map((r) => r.text)].slice(0, MAX_HEALTH_REASONS).map((r) => cut(r, 200)),
    ...(evidence.before ? { smart_before: smartForWire(evidence.before) } : {}),
    ...(evidence.after ? { smart_after: smartForWire(evidence.after) } : {}),
    ...(evidence.smartUnavailable !== undefined ? { smart_unavailable: cut(evidence.smartUnavailable, 200) } : {}),
    ...(profile
      ? {
          region_bytes: count(profile.regionBytes) ?? 0,
          profile_mbps: (mbps ?? []).map((r) => (r === null || !Number.isFinite(r) ? null : Math.min(1e6, Math.max(0, Math.round(r * 10) / 10)))),
          io_errors: count(profile.ioErrors) ?? 0,
          retries: count(profile.retries) ?? 0,
        }
      : {}),
    ...(evidence.selfTest
      ? {
          self_test: {
            outcome: evidence.selfTest.outcome,
            ...(evidence.selfTest.failingLba !== undefined ? { failing_lba: count(evidence.selfTest.failingLba) ?? 0 } : {}),
            ...(evidence.selfTest.detail !== undefined ? { detail: cut(evidence.selfTest.detail, 200) } : {}),
          },
        }
      : {}),
  };
}
