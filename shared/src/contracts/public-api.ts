import { Type, type Static } from '@sinclair/typebox';
import { CertificateStatus, ErrorBody, Nullable, Timestamp } from './common.js';
import type { RouteDescriptor } from './gateway.js';
import { WireHealthGrade } from './wipe-health.js';
import { wipeFilterFields } from './wipes-query.js';

/**
 * The public read-only asset API (spec 4.3, 7 "Public API"), `Authorization: Bearer <API key>`.
 * Every failure of the key is a 401 with an EMPTY body, so the 401 entries below carry no schema
 * worth validating against; `Type.Null()` stands for "no body".
 */

/** Rows per page of `GET /api/v1/assets`; clients read `pages` rather than assume it (spec 8). */
export const PUBLIC_API_PAGE_SIZE = 100;

const Str = Nullable(Type.String());
const Int = Nullable(Type.Integer());
const Time = Nullable(Timestamp);

/** Spec 2 "Asset summary": every field may be null except `id`. */
export const AssetSummary = Type.Object(
  {
    id: Type.String({ pattern: '^asset_' }),
    account_id: Str,
    record_id: Str,
    manufacturer: Str,
    model: Str,
    serial_number: Str,
    asset_tag: Str,
    cpu_model: Str,
    memory_total_bytes: Int,
    storage_summary: Str,
    storage_serials: Str,
    battery_health_pct: Int,
    tpm_version: Str,
    firmware_mode: Str,
    secure_boot: Nullable(Type.Boolean()),
    bios_version: Str,
    engine_version: Str,
    technician: Str,
    notes: Str,
    test_results: Nullable(Type.Record(Type.String(), Type.Unknown())),
    first_seen_at: Time,
    audited_at: Time,
    updated_at: Time,
  },
  { additionalProperties: false },
);
export type AssetSummary = Static<typeof AssetSummary>;

/**
 * Issue 30 item 6, beside the spec's fields: each drive erased from this machine (its newest wipe
 * result) with its health grade for resale and the grade's reasons; grade null and no reasons for
 * a drive erased by an agent that does not grade health.
 */
export const DriveHealthSummary = Type.Object(
  {
    drive_serial: Str,
    drive_model: Str,
    wipe_result_id: Type.String({ pattern: '^wr_' }),
    completed_at: Time,
    health_grade: Nullable(WireHealthGrade),
    health_reasons: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type DriveHealthSummary = Static<typeof DriveHealthSummary>;

/** The detail adds the raw hardware document of the most recent boot, and the erased drives' health grades. */
export const AssetDetail = Type.Composite([
  AssetSummary,
  Type.Object({ fingerprint: Nullable(Type.Record(Type.String(), Type.Unknown())), drive_health: Type.Array(DriveHealthSummary) }),
]);
export type AssetDetail = Static<typeof AssetDetail>;

/** Spec 2 "Pagination envelope". */
export const PageEnvelope = {
  page: Type.Integer({ minimum: 1 }),
  pages: Type.Integer({ minimum: 1 }),
  count: Type.Integer({ minimum: 0 }),
};

export const AssetPage = Type.Object(
  { assets: Type.Array(AssetSummary), ...PageEnvelope },
  { additionalProperties: false },
);
export type AssetPage = Static<typeof AssetPage>;

/** Query of `GET /api/v1/assets`; values arrive as strings and are parsed by the cloud. */
export const AssetListQuery = Type.Object(
  {
    account_id: Type.Optional(Type.String()),
    since: Type.Optional(Type.String()),
    serial: Type.Optional(Type.String()),
    page: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
export type AssetListQuery = Static<typeof AssetListQuery>;

/**
 * Issue 31 item 5, beside the spec's resources: one wipe result as the wipes grid shows it, for
 * ERPs that sync wipes and their certificates instead of receiving webhooks. Every field may be
 * null except `id`, `account_id`, `job_id`, `wipe_status`, `source`, `health_reasons` and the times
 * the cloud stamps.
 */
export const PublicWipe = Type.Object(
  {
    id: Type.String({ pattern: '^wr_' }),
    account_id: Type.String({ pattern: '^acct_' }),
    job_id: Type.String(),
    drive_serial: Str,
    drive_model: Str,
    drive_vendor: Str,
    drive_capacity_gb: Int,
    /** From the matched machine's fingerprint: `SSD`, `HDD`, or null when unknown. */
    media_type: Nullable(Type.Union([Type.Literal('SSD'), Type.Literal('HDD')])),
    wipe_method: Str,
    passes_completed: Int,
    started_at: Time,
    completed_at: Time,
    duration_seconds: Int,
    /** `completed`, `failed`, `cancelled`; absent on the wire reads as `completed`. */
    wipe_status: Type.String(),
    validation: Str,
    /** Where the drive was erased: a matched machine (`asset_id`), a hotswap station (`bay`, `chassis` when known), or neither. */
    source: Type.Object(
      {
        kind: Type.Union([Type.Literal('asset'), Type.Literal('hotswap'), Type.Literal('none')]),
        asset_id: Type.Optional(Type.String({ pattern: '^asset_' })),
        bay: Type.Optional(Type.String()),
        chassis: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    technician: Str,
    customer: Str,
    lot_reference: Str,
    /** Typed or scanned at the kiosk (issue 31 item 6); customer and lot above are the kiosk's too when it named them. */
    asset_tag: Str,
    /** Null when the wipe is not certifiable; else its certificate as the pipeline stands. */
    certificate: Nullable(
      Type.Object(
        {
          status: Type.Union([Type.Literal('pending'), Type.Literal('generating'), Type.Literal('complete'), Type.Literal('failed')]),
          id: Nullable(Type.String({ pattern: '^cert_' })),
          number: Str,
        },
        { additionalProperties: false },
      ),
    ),
    health_grade: Nullable(WireHealthGrade),
    health_reasons: Type.Array(Type.String()),
    created_at: Timestamp,
    /** Last change (a certificate issued, a validation recorded): the field `since` filters on. */
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);
export type PublicWipe = Static<typeof PublicWipe>;

export const WipePage = Type.Object({ wipes: Type.Array(PublicWipe), ...PageEnvelope }, { additionalProperties: false });
export type WipePage = Static<typeof WipePage>;

/** Query of `GET /api/v1/wipes`: the sync parameters of the assets, and the wipes grid's filters. */
export const WipeListQuery = Type.Object(
  {
    account_id: Type.Optional(Type.String()),
    since: Type.Optional(Type.String()),
    page: Type.Optional(Type.String()),
    ...Object.fromEntries(Object.keys(wipeFilterFields).map((name) => [name, Type.Optional(Type.String())])),
  },
  { additionalProperties: true },
);
export type WipeListQuery = Static<typeof WipeListQuery>;

/**
 * Issue 31 item 5: one certificate by its number (`CW-000001`, numbered per account), with links
 * to its two signed PDFs. The links are API routes (same key) answering 302 to a presigned file
 * URL valid for 5 minutes; they are null until the certificate is `complete`.
 */
export const PublicCertificate = Type.Object(
  {
    number: Type.String(),
    id: Type.String({ pattern: '^cert_' }),
    wipe_id: Type.String({ pattern: '^wr_' }),
    account_id: Type.String({ pattern: '^acct_' }),
    status: CertificateStatus,
    /** When both PDFs were made (the certificate became `complete`); null before. */
    issued_at: Time,
    /** The public tamper check (spec 4.4): a page for people, JSON for programs. */
    verify_url: Type.String(),
    certificate_pdf_url: Str,
    report_pdf_url: Str,
    /** SHA-256 (hex) of the stored PDFs: the bytes the links serve. */
    certificate_sha256: Str,
    report_sha256: Str,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);
export type PublicCertificate = Static<typeof PublicCertificate>;

/** What a lot document covers, as its summary page and verify page state it. */
export const PublicLotSummary = Type.Object(
  {
    customers: Type.Array(Type.String()),
    lots: Type.Array(Type.String()),
    from: Time,
    to: Time,
    drives: Type.Integer(),
    certified: Type.Integer(),
    by_status: Type.Record(Type.String(), Type.Integer()),
    by_method: Type.Record(Type.String(), Type.Integer()),
    validation: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

/**
 * Issue 31 item 5: a lot is a lot certificate the account made (the web app's "One merged PDF",
 * `lot_documents`): what it covers, its verify URL and the SHA-256 of the signed PDF served then.
 * The cloud does not keep that PDF; the record lets its holder check it. Lot documents never
 * change, so `created_at` is the field `since` filters on.
 */
export const PublicLot = Type.Object(
  {
    id: Type.String({ pattern: '^lotdoc_' }),
    account_id: Type.String({ pattern: '^acct_' }),
    created_at: Timestamp,
    verify_url: Type.String(),
    document_sha256: Type.String(),
    summary: PublicLotSummary,
  },
  { additionalProperties: false },
);
export type PublicLot = Static<typeof PublicLot>;

/** One drive of a lot document, in the document's order; the certificate fields are null for a drive without one. */
export const PublicLotDrive = Type.Object(
  {
    certificate_number: Str,
    certificate_id: Nullable(Type.String({ pattern: '^cert_' })),
    /** `GET /api/v1/certificates/{number}` of this drive's certificate. */
    certificate_url: Str,
    drive_serial: Str,
    drive_model: Str,
    /** The result as the document printed it: Pass, Fail, Cancelled. */
    status: Type.String(),
  },
  { additionalProperties: false },
);
export type PublicLotDrive = Static<typeof PublicLotDrive>;

export const PublicLotDetail = Type.Object(
  { ...PublicLot.properties, drives: Type.Array(PublicLotDrive) },
  { additionalProperties: false },
);
export type PublicLotDetail = Static<typeof PublicLotDetail>;

export const LotPage = Type.Object({ lots: Type.Array(PublicLot), ...PageEnvelope }, { additionalProperties: false });
export type LotPage = Static<typeof LotPage>;

/** Query of `GET /api/v1/lots`: the sync parameters of the assets. */
export const LotListQuery = Type.Object(
  {
    account_id: Type.Optional(Type.String()),
    since: Type.Optional(Type.String()),
    page: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
export type LotListQuery = Static<typeof LotListQuery>;

/** The account a key belongs to; `active` is derived from its subscription. */
export const PublicAccount = Type.Object(
  {
    id: Type.String({ pattern: '^acct_' }),
    numeric_id: Type.Integer(),
    name: Type.String(),
    active: Type.Boolean(),
    subscription_status: Type.String(),
    current_period_end: Time,
    created_at: Timestamp,
  },
  { additionalProperties: false },
);
export type PublicAccount = Static<typeof PublicAccount>;

/** `GET /api/v1/accounts`: always exactly the key's one account, in the list envelope. */
export const AccountList = Type.Object(
  { accounts: Type.Array(PublicAccount, { minItems: 1, maxItems: 1 }), ...PageEnvelope },
  { additionalProperties: false },
);
export type AccountList = Static<typeof AccountList>;

/** `GET /api/v1/me`: who is calling: the key, its account and the user who minted it (if any). */
export const Me = Type.Object(
  {
    api_key: Type.Object(
      { id: Type.String({ pattern: '^key_' }), name: Type.String(), created_at: Timestamp },
      { additionalProperties: false },
    ),
    account: PublicAccount,
    account_id: Type.String({ pattern: '^acct_' }),
    account_name: Type.String(),
    user_email: Str,
  },
  { additionalProperties: false },
);
export type Me = Static<typeof Me>;

/** The exact texts of the public API's bodies (spec 7 "Public API"). */
export const PUBLIC_API_ERRORS = {
  assetNotFound: 'Asset not found',
  wipeNotFound: 'Wipe not found',
  certificateNotFound: 'Certificate not found',
  certificateNotIssued: 'Certificate not issued yet: its PDFs are made once its status is complete',
  certificateFilesUnavailable: 'certificate files are not available on this deployment',
  lotNotFound: 'Lot not found',
  lotPdfNotKept: 'This lot certificate was made before the cloud kept lot PDFs: make it again from the wipes grid',
  accountNotFound: 'Account not found',
  invalidSince: 'since must be an ISO 8601 timestamp, for example 2026-11-22T13:07:12Z',
  invalidPage: 'page must be a positive integer',
  rateLimited: 'rate limit exceeded',
} as const;

const errors = { 401: Type.Null(), 429: ErrorBody };

export const publicApi = {
  listAssets: {
    method: 'GET',
    url: '/api/v1/assets',
    query: AssetListQuery,
    response: { 200: AssetPage, 404: ErrorBody, 422: ErrorBody, ...errors },
  },
  getAsset: {
    method: 'GET',
    url: '/api/v1/assets/:id',
    response: { 200: AssetDetail, 404: ErrorBody, ...errors },
  },
  listWipes: {
    method: 'GET',
    url: '/api/v1/wipes',
    query: WipeListQuery,
    response: { 200: WipePage, 404: ErrorBody, 422: ErrorBody, ...errors },
  },
  getWipe: {
    method: 'GET',
    url: '/api/v1/wipes/:id',
    response: { 200: PublicWipe, 404: ErrorBody, ...errors },
  },
  getCertificate: {
    method: 'GET',
    url: '/api/v1/certificates/:number',
    response: { 200: PublicCertificate, 404: ErrorBody, ...errors },
  },
  getCertificatePdf: {
    method: 'GET',
    url: '/api/v1/certificates/:number/pdf',
    response: { 302: Type.Null(), 404: ErrorBody, 409: ErrorBody, 503: ErrorBody, ...errors },
  },
  getCertificateReport: {
    method: 'GET',
    url: '/api/v1/certificates/:number/report',
    response: { 302: Type.Null(), 404: ErrorBody, 409: ErrorBody, 503: ErrorBody, ...errors },
  },
  listLots: {
    method: 'GET',
    url: '/api/v1/lots',
    query: LotListQuery,
    response: { 200: LotPage, 404: ErrorBody, 422: ErrorBody, ...errors },
  },
  getLot: {
    method: 'GET',
    url: '/api/v1/lots/:id',
    response: { 200: PublicLotDetail, 404: ErrorBody, ...errors },
  },
  getLotPdf: {
    method: 'GET',
    url: '/api/v1/lots/:id/pdf',
    response: { 302: Type.Null(), 404: ErrorBody, 409: ErrorBody, 503: ErrorBody, ...errors },
  },
  listAccounts: {
    method: 'GET',
    url: '/api/v1/accounts',
    response: { 200: AccountList, ...errors },
  },
  me: {
    method: 'GET',
    url: '/api/v1/me',
    response: { 200: Me, ...errors },
  },
} as const satisfies Record<string, RouteDescriptor>;

export type PublicApi = typeof publicApi;
