import { Type, type Static } from '@sinclair/typebox';

/**
 * The language certificates and reports are drawn in (issue 31 item 7 part B): per account, an
 * admin setting in the web app (`/app/api/certificate-language`, default English), and per device
 * token, a mint option that overrides the account's. Only the pages are translated; the signed
 * record is the same in every language.
 */
export const CERTIFICATE_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type CertificateLanguage = (typeof CERTIFICATE_LANGUAGES)[number];

/** Each language in its own words, as the settings list offers it. */
export const CERTIFICATE_LANGUAGE_NAMES: Readonly<Record<CertificateLanguage, string>> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español' };

export const CertificateLanguageSchema = Type.Union(CERTIFICATE_LANGUAGES.map((l) => Type.Literal(l)));

/** PUT /app/api/certificate-language */
export const CertificateLanguageBody = Type.Object({ language: CertificateLanguageSchema }, { additionalProperties: false });
export type CertificateLanguageBody = Static<typeof CertificateLanguageBody>;

/** GET and PUT /app/api/certificate-language answer */
export const CertificateLanguageView = Type.Object(
  {
    language: CertificateLanguageSchema,
    languages: Type.Array(Type.Object({ code: CertificateLanguageSchema, name: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type CertificateLanguageView = Static<typeof CertificateLanguageView>;

export const isCertificateLanguage = (value: unknown): value is CertificateLanguage =>
  typeof value === 'string' && (CERTIFICATE_LANGUAGES as readonly string[]).includes(value);
