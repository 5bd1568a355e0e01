/**
 * Why a wipe has no certificate, in plain words, from the reason the cloud stored with it
 * (`wipe_results.uncertified_reason`, a wire-ish phrase; see docs/architecture.md "Only a
 * check-in makes a result certifiable"). The stored phrase stays available under Details.
 */
export function notIssuedInWords(reason: string | null): string {
  const stored = reason?.trim() ?? '';
  if (stored === '') return 'No reason was recorded';
  if (stored === 'job_id was not issued by a check-in of this token') return 'Its run was not checked in with this device token';
  const cap = /^drive -(\d+) is past the cap of (\d+) drives per machine/.exec(stored);
  if (cap) return `More drives than one check-in covers (${cap[2]} per machine)`;
  if (stored === 'wipe_status failed') return 'The erasure failed';
  if (stored === 'wipe_status cancelled') return 'The erasure was cancelled';
  if (stored.startsWith('wipe_status ')) return 'The erasure did not complete';
  if (stored.startsWith('validation ')) return 'The device did not approve the erasure\u2019s verification';
  return 'Not certified (see Details)';
}
