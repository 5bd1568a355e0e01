import type { TSchema } from '@sinclair/typebox';
import { PUBLIC_API_PAGE_SIZE, publicApi, type RouteDescriptor } from '@erasure/shared';

/**
 * The public API's OpenAPI 3.1 document, generated from the same TypeBox route descriptors the
 * routes and their tests use (`publicApi` in shared/), so it cannot describe a body the API does
 * not send. OpenAPI 3.1 schemas are JSON Schema, which TypeBox schemas already are.
 */
interface RouteDoc {
  readonly summary: string;
  readonly description: string;
  readonly parameters?: Readonly<Record<string, string>>;
  /** A status whose meaning on this route differs from {@link STATUS_TEXT}'s. */
  readonly statuses?: Readonly<Record<number, string>>;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  302: 'Found: Location is a presigned URL of the stored PDF, valid for 5 minutes, served without the API key',
  304: 'Not modified: the ETag sent in If-None-Match still matches; no body',
  401: 'Missing, unknown or revoked API key; empty body',
  404: 'Not found',
  409: 'The certificate is not complete yet: its PDFs do not exist',
  422: 'A query parameter is malformed; the error names it',
  429: 'Rate limit exceeded; wait Retry-After seconds',
  503: 'This deployment serves no certificate files (no certificate store configured)',
};

const DOCS: Readonly<Record<keyof typeof publicApi, RouteDoc>> = {
  listAssets: {
    summary: 'List assets',
    description: `The account's machines, newest change first (updated_at, then id: a total order, so paging an unchanged set never repeats or skips a row). ${PUBLIC_API_PAGE_SIZE} per page; read pages from each answer.`,
    parameters: {
      account_id: "Your own account (acct_… or its numeric id); any other account is 404.",
      since: 'ISO 8601 timestamp: only assets whose updated_at is at or after it. Use the start time of your last complete sync.',
      serial: 'Exact serial number.',
      page: 'Page number, from 1.',
    },
  },
  getAsset: {
    summary: 'Get one asset',
    description: "One machine with its full fingerprint (DMI, CPU, memory, drives, batteries, displays).",
    parameters: { id: 'The asset id (asset_…).' },
  },
  listWipes: {
    summary: 'List wipes',
    description: `The account's drive wipes, last change first (updated_at, then id), as the web app's wipes grid shows them, with their certificates. Sync them as the assets: keep the start time of your last complete run as since, read every page, upsert by id. The grid's filters narrow the list. ${PUBLIC_API_PAGE_SIZE} per page; read pages from each answer.`,
    parameters: {
      account_id: 'Your own account (acct_… or its numeric id); any other account is 404.',
      since: 'ISO 8601 timestamp: only wipes whose updated_at (stored, certificate issued, validation recorded) is at or after it.',
      page: 'Page number, from 1.',
      q: 'Part of the drive model, serial, technician, certificate number, customer or lot, in any case.',
      status: 'completed, failed or cancelled.',
      media: 'SSD, HDD, or unknown (the drive matched no machine that reported its media type).',
      source: 'asset (a matched machine), hotswap (a station bay) or none.',
      method: 'Exact erasure method, e.g. NIST 800-88 R2 Purge.',
      from: 'Completed at or after: a date (its start, UTC) or an ISO 8601 timestamp with a zone.',
      to: 'Completed at or before: a date (through its end, UTC) or an ISO 8601 timestamp with a zone.',
      customer: "Exact customer of the reporting device token.",
      lot: 'Exact lot / job reference of the reporting device token.',
    },
  },
  getWipe: {
    summary: 'Get one wipe',
    description: 'One drive wipe with its certificate: the same fields as in the list.',
    parameters: { id: 'The wipe result id (wr_…).' },
  },
  getCertificate: {
    summary: 'Get one certificate',
    description:
      "A certificate of sanitization by its number (numbered per account, e.g. CW-000001): its wipe, status, when it was issued, its public verify URL, and the API links to its two signed PDFs with their SHA-256 (null until the status is complete). Another account's number is 404 as an unknown one.",
    parameters: { number: 'The certificate number (CW-…), as printed on it and in each wipe\'s certificate.number.' },
  },
  getCertificatePdf: {
    summary: 'Download a certificate (PDF)',
    description: 'The signed certificate PDF: 302 to a presigned URL of the stored file, valid for 5 minutes. The bytes are the stored ones (certificate_sha256). 409 while the certificate is not complete.',
    parameters: { number: 'The certificate number (CW-…).' },
  },
  getCertificateReport: {
    summary: 'Download an Erasure Report (PDF)',
    description: 'The signed Erasure Report PDF of the certificate: 302 to a presigned URL of the stored file, valid for 5 minutes (report_sha256). 409 while the certificate is not complete.',
    parameters: { number: 'The certificate number (CW-…).' },
  },
  listLots: {
    summary: 'List lots',
    description: `The lot certificates your account made (the web app's "One merged PDF" of selected wipes), newest first (created_at, then id): what each covers and its verify URL. A lot never changes once made, so since compares created_at; sync as the assets. The signed PDF is at /api/v1/lots/{id}/pdf; document_sha256 is its hash. ${PUBLIC_API_PAGE_SIZE} per page; read pages from each answer.`,
    parameters: {
      account_id: 'Your own account (acct_… or its numeric id); any other account is 404.',
      since: 'ISO 8601 timestamp: only lots made at or after it.',
      page: 'Page number, from 1.',
    },
  },
  getLot: {
    summary: 'Get one lot',
    description: 'One lot certificate with its drives in the document\'s order, each with its certificate number and API link (null for a drive without a certificate).',
    parameters: { id: 'The lot document id (lotdoc_…), as its verify URL names it.' },
  },
  getLotPdf: {
    summary: 'Download a lot certificate (PDF)',
    description:
      'The signed lot certificate PDF, one document over the lot\'s certificates: 302 to a presigned URL of the file kept when the lot was made, valid for 5 minutes. The bytes are the ones served then (document_sha256). 409 for a lot made before the cloud kept lot PDFs.',
    parameters: { id: 'The lot document id (lotdoc_…).' },
    statuses: { 409: 'The lot was made before the cloud kept lot PDFs: make it again from the wipes grid' },
  },
  listAccounts: { summary: 'List accounts', description: "The key's own account, in the list envelope." },
  me: { summary: 'Who am I', description: 'The API key making the call, its account and the user who minted it.' },
};

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/** A TypeBox schema as plain JSON (TypeBox marks its schemas with symbol keys that JSON drops anyway). */
const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema));

function parametersOf(route: RouteDescriptor, doc: RouteDoc): unknown[] {
  const inPath = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const pathParameters = inPath.map((name) => ({ name, in: 'path', required: true, description: doc.parameters?.[name] ?? '', schema: { type: 'string' } }));
  const properties = (route.query as { properties?: Record<string, TSchema> } | undefined)?.properties ?? {};
  const queryParameters = Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: false, description: doc.parameters?.[name] ?? '', schema: plain(schema) }));
  return [...pathParameters, ...queryParameters];
}

function responsesOf(route: RouteDescriptor, doc: RouteDoc): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(route.response)) {
    const code = Number(status);
    const description = doc.statuses?.[code] ?? STATUS_TEXT[code] ?? 'Response';
    // The 401 of the public API has no body at all (spec 7), which OpenAPI says by omitting content;
    // a 302 (a certificate's PDF) has none either, only its Location.
    if (code === 302) responses[status] = { description, headers: { Location: { description: 'The presigned file URL', schema: { type: 'string' } } } };
    else responses[status] = code === 401 ? { description } : { description, content: { 'application/json': { schema: plain(schema) } } };
    if (code === 200) responses['304'] = { description: STATUS_TEXT[304] };
  }
  return responses;
}

export function publicApiOpenApi(serverUrl: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, route] of Object.entries(publicApi) as [keyof typeof publicApi, RouteDescriptor][]) {
    const doc = DOCS[name];
    paths[openApiPath(route.url)] = {
      [route.method.toLowerCase()]: {
        operationId: name,
        summary: doc.summary,
        description: doc.description,
        parameters: parametersOf(route, doc),
        responses: responsesOf(route, doc),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Erasure public API',
      version,
      description:
        'Read-only access to your account\'s assets, drive wipes, certificates and lot certificates. Send the header Authorization: Bearer <API key> (keys are minted on the API keys page). ' +
        'Every 200 carries an ETag; send it back as If-None-Match to get 304 for an unchanged page. ' +
        'Each key may make 600 requests per minute, reported in RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (ek_…)' } } },
    paths,
  };
}
