/**
 * Certificates of Sanitization, document half: the signed content, its canonical form, and the
 * two PDFs (certificate and Erasure Report). Pure apart from the font bytes passed in; the job
 * that stores, queues and serves them lives outside this folder.
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
