import type { FastifyInstance } from 'fastify';
import { Value } from '@sinclair/typebox/value';
import { CERTIFICATE_LANGUAGE_NAMES, CERTIFICATE_LANGUAGES, CertificateLanguageBody, type CertificateLanguageView } from '@erasure/shared';
import { findAccountCertificateLanguage, saveAccountCertificateLanguage } from '../../adapters/db/certificate-language.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { requireRole, requireSession, sessionOf } from '../session.js';

const LANGUAGES = CERTIFICATE_LANGUAGES.map((code) => ({ code, name: CERTIFICATE_LANGUAGE_NAMES[code] }));

/**
 * The language the account's certificates and reports are drawn in (issue 31 item 7 part B):
 * anyone signed in reads it, admins change it. A device token minted with its own language keeps
 * that one; certificates already issued keep the language they were drawn in.
 */
export function registerAppCertificateLanguage(app: FastifyInstance, deps: { db: SqlDatabase }): void {
  const view = async (accountId: number): Promise<CertificateLanguageView> => ({ language: await findAccountCertificateLanguage(deps.db, accountId), languages: LANGUAGES });

  app.get('/app/api/certificate-language', { preHandler: requireSession }, async (request) => view(sessionOf(request).account.id));

  app.put('/app/api/certificate-language', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    if (!Value.Check(CertificateLanguageBody, request.body)) {
      return reply.code(400).send({ error: `send {"language": "…"} with one of ${CERTIFICATE_LANGUAGES.join(', ')}` });
    }
    await saveAccountCertificateLanguage(deps.db, account.id, request.body.language);
    request.log.info({ by: user.publicId, language: request.body.language }, 'account certificate language changed');
    return view(account.id);
  });
}
