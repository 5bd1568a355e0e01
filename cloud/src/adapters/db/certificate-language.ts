import { isCertificateLanguage, type CertificateLanguage } from '@erasure/shared';
import type { SqlRunner } from '../sql/database.js';

/*
 * Where the language of certificates lives (migration 027 / PostgreSQL 020, issue 31 item 7
 * part B): the account's setting, the token's option, and the language each certificate was
 * first drawn in.
 */

/** A stored language; the columns' CHECK allows only these, so anything else is a broken row. */
function checked(value: unknown, where: string): CertificateLanguage {
  if (!isCertificateLanguage(value)) throw new Error(`${where} holds an unknown certificate language`);
  return value;
}

export async function findAccountCertificateLanguage(db: SqlRunner, accountId: number): Promise<CertificateLanguage> {
  const row = await db.one<{ certificate_language: string }>('SELECT certificate_language FROM accounts WHERE id = @accountId', { accountId });
  return checked(row?.certificate_language, `account ${accountId}`);
}

export async function saveAccountCertificateLanguage(db: SqlRunner, accountId: number, language: CertificateLanguage): Promise<void> {
  await db.run('UPDATE accounts SET certificate_language = @language WHERE id = @accountId', { accountId, language });
}

/**
 * The language a certificate is drawn in, fixed by its job's first run: one statement keeps the
 * language already stored and otherwise stores `chosen`, so a retried job or a re-render after
 * the setting changed draws the page it drew before. Rows from before languages read English.
 */
export async function fixCertificateLanguage(db: SqlRunner, certificateId: number, chosen: CertificateLanguage): Promise<CertificateLanguage> {
  const row = await db.one<{ language: string }>(
    'UPDATE certificates SET language = COALESCE(language, @chosen) WHERE id = @certificateId RETURNING language',
    { certificateId, chosen },
  );
  return checked(row?.language, `certificate ${certificateId}`);
}
