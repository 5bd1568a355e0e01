/**
 * Certificates of Sanitization, document half: the signed content, its canonical form, and the
 * two PDFs (certificate and Erasure Report); also the content builder, the tamper check and
 * presigned-URL signing. Pure apart from the font bytes and object reads passed in; the job that
 * queues and stores them is in `jobs/`, the routes that serve them in `http/routes/`.
 */
export {
  CERTIFICATE_JSON_NAME,
  CERTIFICATE_SCHEMA,
  CERTIFICATE_SIG_NAME,
  canonicalJson,
  canonicalize,
  deriveNistCategory,
  signatureFingerprint,
  signContent,
  verifyBytes,
  verifyContent,
  type CertificateContent,
  type NistCategory,
} from './certificate-content.js';
export { EmbeddedCertificateError, readEmbeddedCertificate, type EmbeddedCertificate } from './embedded-certificate.js';
export {
  DEBIAN_FONT_FILES,
  FontUnavailableError,
  loadFontSource,
  type FontFace,
  type FontFiles,
  type FontRole,
  type FontSource,
} from './fonts.js';
export { renderCertificatePdf, type CertificateRenderDeps } from './render-certificate.js';
export { renderErasureReportPdf, type ReportRenderDeps } from './render-report.js';
export { erasedDriveEntry, type ErasureReportData } from './report-data.js';
export {
  buildCertificateContent,
  buildReportData,
  signedWipeFacts,
  TOOL_NAME,
  verifyUrl,
  wipeFacts,
  type CertificateInputs,
  type CertificateMachine,
  type WipeFacts,
} from './build-content.js';
export { checkPresigned, filesPath, FILES_PREFIX, presignPath, PRESIGNED_URL_TTL_SECONDS, type PresignCheck } from './presign.js';
export { checkCertificate, type StoredCertificate, type TamperCheckDeps, type VerifyAnswer } from './tamper-check.js';
