import type { KeyObject } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { readWipeResultSource } from '../../adapters/db/certificate-sources.js';
import { findCertificateById, findCertificateByPublicId } from '../../adapters/db/certificates.js';
import { findMachineByDriveScan, listSandboxAssets, listSandboxCertificates, listSandboxWipeResults } from '../../adapters/db/sandbox/rows.js';
import type { SqlRunner } from '../../adapters/sql/database.js';
import { checkCertificate, type VerifyAnswer } from '../../domain/certificates/tamper-check.js';

/**
 * The cloud's tamper check with the sandbox's document policy: no PDFs exist, so validity is the
 * signed record alone (signature, ids, signing time, wipe facts equal to the current row).
 */
export async function verifySandboxCertificate(db: SqlRunner, publicKey: KeyObject, certificateId: number): Promise<VerifyAnswer | undefined> {
  const cert = await findCertificateById(db, certificateId);
  const wipe = cert && (await readWipeResultSource(db, cert.wipe_result_id));
  if (!cert || !wipe) return undefined;
  const account = (await db.one<{ name: string }>('SELECT name FROM accounts WHERE id = @id', { id: cert.account_id }))!;
  // The sandbox signs with one key and no key id.
  return checkCertificate({ publicKeys: async () => [publicKey], readObject: async () => undefined, documents: 'none' }, cert, wipe, account.name);
}

/** Spec 4.6 row listings (every account) and the public certificate check of spec 4.4. */
export function registerListingRoutes(scope: FastifyInstance, deps: { db: SqlRunner; publicKey: KeyObject }): void {
  scope.get('/sandbox/assets', async () => listSandboxAssets(deps.db));

  scope.get('/sandbox/wipe_results', async () =>
    Promise.all(
      (await listSandboxWipeResults(deps.db)).map(async ({ numeric_account_id, ...row }) => ({
        ...row,
        // Spec 1: the machine a drive came from, found by scanning stored fingerprints.
        asset_id: (await findMachineByDriveScan(deps.db, numeric_account_id, row.drive_serial as string | null))?.public_id ?? null,
      })),
    ),
  );

  scope.get('/sandbox/certificates', async () =>
    Promise.all(
      (await listSandboxCertificates(deps.db)).map(async (c) => ({
        prefix_id: c.public_id,
        reference: c.certificate_number,
        account_name: c.account_name,
        signed_at: c.signed_at,
        tamper_valid: (await verifySandboxCertificate(deps.db, deps.publicKey, c.id))?.valid ?? false,
        wipe_result_id: c.wipe_result_id,
        drive_serial: c.drive_serial,
        drive_model: c.drive_model,
      })),
    ),
  );
}

/** `GET /certificates/:id/verify` (spec 4.4), public, as the cloud answers it. */
export function registerVerifyRoute(app: FastifyInstance, deps: { db: SqlRunner; publicKey: KeyObject }): void {
  app.get<{ Params: { id: string } }>('/certificates/:id/verify', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const cert = await findCertificateByPublicId(deps.db, request.params.id);
    const answer = cert && (await verifySandboxCertificate(deps.db, deps.publicKey, cert.id));
    return answer ? answer : reply.code(404).send({ valid: false, error: 'not_found' });
  });
}
