import { fixtureText } from './fixtures.js';

/**
 * DERIVED fixtures: no real `hdparm -I` of a locked drive was published whole (see
 * shared/fixtures/real/PROVENANCE.md, "enabled/locked: only a fragmentary snippet"). These take
 * the real Samsung 850 EVO capture and change only its Security section's state lines, as hdparm
 * prints them (identify.c: one "<not>\t<word>" line per status bit, then "Security level high|maximum"
 * while a password is set, and the master password revision code on its own line). Nothing else
 * in the capture changes; the tests that use them say "derived" in their names.
 */
export const DERIVED_FROM = 'hdparm/samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt';

export interface DerivedSecurity {
  readonly locked: boolean;
  readonly level: 'high' | 'maximum';
  readonly expired?: boolean;
  /** A master password revision other than the factory 65534 (the fleet's IT set its own). */
  readonly masterRevision?: number;
}

/** The real capture with a user password set (`enabled`), locked or not, at `level`. */
export function derivedHdparmSecurity(s: DerivedSecurity): string {
  const real = fixtureText('hdparm', DERIVED_FROM.replace(/^hdparm\//, ''));
  const section = [
    'Security: ',
    `\tMaster password revision code = ${s.masterRevision ?? 65534}`,
    '\t\tsupported',
    '\t\tenabled',
    `\t${s.locked ? '' : 'not'}\tlocked`,
    '\tnot\tfrozen',
    `\t${s.expired ? '' : 'not'}\texpired: security count`,
    '\t\tsupported: enhanced erase',
    `\tSecurity level ${s.level}`,
    '\t2min for SECURITY ERASE UNIT. 8min for ENHANCED SECURITY ERASE UNIT.',
  ].join('\n');
  const derived = real.replace(/^Security: ?\n(?:\t.*\n)+/m, `${section}\n`);
  if (derived === real) throw new Error(`the Security section of ${DERIVED_FROM} was not found: the derived fixture would be the real one`);
  return derived;
}
