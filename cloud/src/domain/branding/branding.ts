import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';

/*
 * An account's own branding on its certificates (issue 31 item 7): its logo and company details,
 * printed beside the issuer's name. The signer stays the deployment: branding is drawn on the
 * pages and attached to the PDF (covered by the deployment's PDF signature), never put in the
 * signed record, whose meaning it does not change.
 */

/** The largest logo an account may upload. */
export const LOGO_MAX_BYTES = 512 * 1024;
/** Pixel bounds: smaller is not legible on paper, larger is a photo, not a logo. */
export const LOGO_MIN_PIXELS = 16;
export const LOGO_MAX_PIXELS = 4096;
export const COMPANY_NAME_MAX = 120;
export const ADDRESS_LINE_MAX = 120;
export const ADDRESS_LINES_MAX = 3;
export const CONTACT_MAX = 160;

export type LogoType = 'png' | 'jpeg';

export interface Logo {
  readonly type: LogoType;
  readonly bytes: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** The company details an admin types in. */
export interface BrandingDetails {
  readonly company_name: string;
  readonly address_lines: readonly string[];
  readonly contact: string | null;
}

/** What a certificate is branded with: details, a logo, or both. */
export interface Branding {
  readonly details: BrandingDetails | null;
  readonly logo: Logo | null;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

// Control characters would break a PDF line or hide text; DEL and C1 too.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function field(name: string, value: unknown, max: number, required: boolean): Checked<string | null> {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return required ? { ok: false, error: `${name} is required` } : { ok: true, value: null };
  }
  if (typeof value !== 'string') return { ok: false, error: `${name} must be text` };
  const text = value.trim();
  if (CONTROL.test(text)) return { ok: false, error: `${name} must not contain control characters (such as line breaks)` };
  if (text.length > max) return { ok: false, error: `${name} must be at most ${max} characters` };
  return { ok: true, value: text };
}

/** Checks the details of a save: a company name, up to three address lines, an optional contact. */
export function parseBrandingDetails(body: unknown): Checked<BrandingDetails> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'expected a JSON object {company_name, address_lines, contact}' };
  const input = body as Record<string, unknown>;
  const name = field('company_name', input.company_name, COMPANY_NAME_MAX, true);
  if (!name.ok) return name;
  const rawLines = input.address_lines ?? [];
  if (!Array.isArray(rawLines)) return { ok: false, error: 'address_lines must be a list of lines' };
  const lines: string[] = [];
  for (const [i, line] of rawLines.entries()) {
    const checked = field(`address_lines[${i}]`, line, ADDRESS_LINE_MAX, false);
    if (!checked.ok) return checked;
    if (checked.value !== null) lines.push(checked.value);
  }
  if (lines.length > ADDRESS_LINES_MAX) return { ok: false, error: `address_lines holds at most ${ADDRESS_LINES_MAX} lines` };
  const contact = field('contact', input.contact, CONTACT_MAX, false);
  if (!contact.ok) return contact;
  return { ok: true, value: { company_name: name.value!, address_lines: lines, contact: contact.value } };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's IHDR, which must be the first chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 33) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * Why a PNG's body is not whole, or null: every chunk complete with its CRC, IEND last, and the
 * image data inflating (within a bound) to exactly the rows its header promises. Checked before
 * anything decodes it: the PDF writer's decoder does not stop on every damaged file.
 */
function pngBodyError(bytes: Uint8Array, width: number, height: number): string | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const idat: Uint8Array[] = [];
  let ended = false;
  for (let at = 8; at < bytes.length; ) {
    if (ended) return 'it has data after its end';
    if (at + 12 > bytes.length) return 'it is cut off';
    const length = view.getUint32(at);
    if (at + 12 + length > bytes.length) return 'it is cut off';
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) return `its ${type} chunk is damaged`;
    if (type === 'IDAT') idat.push(bytes.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') ended = true;
    at += 12 + length;
  }
  if (!ended) return 'it is cut off';
  const bitDepth = bytes[24]!;
  const channels = CHANNELS[bytes[25]!];
  if (!channels || ![1, 2, 4, 8, 16].includes(bitDepth)) return 'its colour type or bit depth is not valid';
  if (bytes[28] !== 0) return 'it is interlaced; save it without interlacing';
  const expected = height * (1 + Math.ceil((width * channels * bitDepth) / 8));
  let rows: Buffer;
  try {
    rows = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch {
    return 'its image data cannot be read';
  }
  return rows.length === expected ? null : 'its image data does not match its size';
}

/** Width and height from a JPEG's first start-of-frame marker (baseline or progressive). */
function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1]!;
    if (marker === 0xff) { i++; continue; }
    const length = (bytes[i + 2]! << 8) | bytes[i + 3]!;
    // SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (bytes[i + 5]! << 8) | bytes[i + 6]!, width: (bytes[i + 7]! << 8) | bytes[i + 8]! };
    }
    if (length < 2) return null;
    i += 2 + length;
  }
  return null;
}

/**
 * Checks an uploaded logo by its bytes, never by its name or declared type: PNG or JPEG magic
 * bytes, at most {@link LOGO_MAX_BYTES}, and pixel dimensions read from the header within bounds.
 */
export function checkLogo(bytes: Uint8Array): Checked<Logo> {
  if (bytes.length === 0) return { ok: false, error: 'the logo is empty: upload a PNG or JPEG file' };
  if (bytes.length > LOGO_MAX_BYTES) return { ok: false, error: `the logo is ${Math.ceil(bytes.length / 1024)} KB; at most ${LOGO_MAX_BYTES / 1024} KB is accepted` };
  let type: LogoType;
  let size: { width: number; height: number } | null;
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) {
    type = 'png';
    size = pngSize(bytes);
  } else if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    type = 'jpeg';
    size = jpegSize(bytes);
  } else {
    return { ok: false, error: 'the logo is not a PNG or JPEG image' };
  }
  if (!size) return { ok: false, error: `the logo's ${type.toUpperCase()} header cannot be read: the file is damaged or not an image` };
  const { width, height } = size;
  if (width < LOGO_MIN_PIXELS || height < LOGO_MIN_PIXELS || width > LOGO_MAX_PIXELS || height > LOGO_MAX_PIXELS) {
    return { ok: false, error: `the logo is ${width}×${height} pixels; each side must be between ${LOGO_MIN_PIXELS} and ${LOGO_MAX_PIXELS}` };
  }
  const damaged = type === 'png' ? pngBodyError(bytes, width, height) : null;
  if (damaged) return { ok: false, error: `the logo's PNG data cannot be read: ${damaged}` };
  return { ok: true, value: { type, bytes, width, height } };
}

/**
 * Whether the PDF writer can read the whole image, not just its header: a logo that passes
 * {@link checkLogo} but cannot be embedded would fail every certificate of the account.
 */
export async function logoEmbedError(logo: Logo): Promise<string | null> {
  try {
    const doc = await PDFDocument.create();
    if (logo.type === 'png') await doc.embedPng(logo.bytes);
    else await doc.embedJpg(logo.bytes);
    return null;
  } catch {
    return `the logo's ${logo.type.toUpperCase()} data cannot be read: the file is damaged or uses an encoding PDFs cannot carry`;
  }
}

/** The attachment that carries the branding inside both PDFs, so `verify-pdf` can redraw the page. */
export const BRANDING_JSON_NAME = 'issuer-branding.json';

/** The branding as the attachment holds it: canonical order, the logo as base64. */
export function brandingAttachment(branding: Branding): Uint8Array {
  const value = {
    details: branding.details && { company_name: branding.details.company_name, address_lines: [...branding.details.address_lines], contact: branding.details.contact },
    logo: branding.logo && { type: branding.logo.type, base64: Buffer.from(branding.logo.bytes).toString('base64') },
  };
  return new TextEncoder().encode(JSON.stringify(value));
}

/** Reads the attachment back, checking it as an upload is checked; an error for anything else. */
export function readBrandingAttachment(bytes: Uint8Array): Checked<Branding> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { ok: false, error: `${BRANDING_JSON_NAME} is not JSON` };
  }
  if (typeof value !== 'object' || value === null) return { ok: false, error: `${BRANDING_JSON_NAME} is not an object` };
  const { details, logo } = value as { details?: unknown; logo?: { type?: unknown; base64?: unknown } | null };
  let parsedDetails: BrandingDetails | null = null;
  if (details !== null && details !== undefined) {
    const checked = parseBrandingDetails(details);
    if (!checked.ok) return checked;
    parsedDetails = checked.value;
  }
  let parsedLogo: Logo | null = null;
  if (logo !== null && logo !== undefined) {
    if (typeof logo.base64 !== 'string') return { ok: false, error: `${BRANDING_JSON_NAME} has a logo without bytes` };
    const checked = checkLogo(new Uint8Array(Buffer.from(logo.base64, 'base64')));
    if (!checked.ok) return checked;
    if (checked.value.type !== logo.type) return { ok: false, error: `${BRANDING_JSON_NAME} names a logo type its bytes are not` };
    parsedLogo = checked.value;
  }
  if (!parsedDetails && !parsedLogo) return { ok: false, error: `${BRANDING_JSON_NAME} brands nothing` };
  return { ok: true, value: { details: parsedDetails, logo: parsedLogo } };
}
