import { METHOD_CATALOGUE, type ErasureMethod } from '@erasure/shared';
import { techniqueDone, type CertificateContent, type NistCategory } from './certificate-content.js';
import { ENGLISH, type Wording } from './i18n/wording.js';

/*
 * Issue 29: what a v4 certificate says in the words of NIST SP 800-88 Rev. 2 (September 2025) and
 * IEEE 2883-2022, from what the device recorded. Rev. 2 separates *verification* (the technique
 * completed as intended, drive by drive: the engine's read-back) from *validation* (an independent
 * check of the outcome), and leaves technique detail to IEEE 2883 (Clear and Purge per interface,
 * with the exact command). Every sentence here is built from recorded facts only: where the record
 * holds nothing, the certificate says so rather than claim what was not done.
 */

/** What a v4 record states about validation when it is signed: the engine's own read-back is verification, never validation. */
export const VALIDATION_AT_ISSUE = 'Not validated when issued (validation is a later, independent check)';

/** The standard a method comes from, as the method catalogue names it; null for a method it does not list. */
export function methodStandard(method: string | null | undefined): string | null {
  const name = method?.trim();
  if (!name) return null;
  return (METHOD_CATALOGUE as readonly ErasureMethod[]).find((m) => m.name === name)?.standard ?? null;
}

// The commands that change the media encryption key, as the engine's drivers issue them.
const KEY_CHANGE_COMMAND = /--sanact=4\b|--ses=2\b|--sanitize-crypto-scramble\b|\bsg_sanitize\b.*--crypto\b/;

/**
 * For a cryptographic erase (the technique that was done names one), the command that changed the
 * key, from the commands recorded in `tool_components`, and the marker read-back after it, from
 * `verification_result`. Null when the technique done is not a cryptographic erase (a crypto erase
 * that failed its check and was followed by an overwrite changed nothing that can be claimed).
 */
export function cryptoEraseEvidence(
  technique: string | null | undefined,
  toolComponents: string | null | undefined,
  verificationResult: string | null | undefined,
): { command: string | null; marker_readback: string | null } | null {
  if (!/crypt/i.test(techniqueDone(technique))) return null;
  const commands = (toolComponents ?? '').split(';').map((p) => p.trim()).filter((p) => KEY_CHANGE_COMMAND.test(p));
  const readback = (verificationResult ?? '')
    .split(/;\s+/)
    .map((p) => p.trim())
    .filter((p) => /test patterns?|markers?\b/i.test(p));
  return { command: commands.length ? commands.join('; ') : null, marker_readback: readback.length ? readback.join('; ') : null };
}

/** The interface IEEE 2883 defines the technique for, read from the technique's words; null when it names none. */
export function interfaceOf(technique: string | null | undefined): string | null {
  const t = techniqueDone(technique);
  if (/\bNVMe\b|\bnvme\s/i.test(t)) return 'NVMe';
  if (/\bS?ATA\b|\bhdparm\b/i.test(t)) return 'SATA';
  if (/\bSCSI\b|\bSAS\b|\bsg_/i.test(t)) return 'SAS';
  return null;
}

/** The line that says which standard and level the method meets, e.g. for the certificate's Sanitization section. */
export function standardAndLevel(
  wipe: Pick<CertificateContent['wipe'], 'method' | 'technique' | 'standard'> & { nist_category: NistCategory },
  w: Wording = ENGLISH,
): string {
  const iface = interfaceOf(wipe.technique);
  // The level and standard names stay as the standards spell them, in every language.
  const level = w.t('level.sentence', { level: wipe.nist_category }) + (iface ? w.t('level.forInterface', { interface: iface }) : '');
  return wipe.standard && !/^NIST SP 800-88/i.test(wipe.standard) ? w.t('level.follows', { standard: wipe.standard, level }) : w.t('level.meets', { level });
}

/** A validation status as the page prints it: the one the cloud writes at issue is translated, any other is printed as recorded. */
export const validationWords = (status: string | null | undefined, w: Wording = ENGLISH): string | null =>
  status === VALIDATION_AT_ISSUE ? w.t('validation.atIssue') : (status ?? null);
