import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IMAGE_FILES } from '@erasure/shared';

/** What makes an image one account's: its device token, its gateway, and optional boot options. */
export interface Personalization {
  readonly deviceToken?: string;
  readonly gatewayUrl?: string;
  /** Extra kernel options for every boot entry, e.g. `erasure.mode=headless erasure.after=poweroff`. */
  readonly bootArgs?: string;
}

/** The personalization is not something the image could use; says what is wrong. */
export class PersonalizationError extends Error {
  readonly code = 'PERSONALIZATION_INVALID' as const;
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Checks a personalization before it goes into an image: a token that is not a compact JWS, a
 * gateway that is not an http(s) URL, or boot options that could break out of the GRUB string
 * would make an image that cannot unlock, so they are refused here instead.
 */
export function checkPersonalization(p: Personalization): Personalization {
  const token = p.deviceToken?.trim();
  if (token !== undefined && !COMPACT_JWS.test(token)) throw new PersonalizationError('the device token is not a compact JWS (three base64url parts separated by dots)');
  const url = p.gatewayUrl?.trim();
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new PersonalizationError(`the gateway URL is not a URL: ${url}`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new PersonalizationError(`the gateway URL must be http(s): ${url}`);
  }
  const args = p.bootArgs?.trim();
  if (args !== undefined && !/^[\w.,:/=+@-]+(?: [\w.,:/=+@-]+)*$/.test(args)) throw new PersonalizationError('boot options may hold letters, digits, spaces and . , : / = + @ - only');
  return { ...(token ? { deviceToken: token } : {}), ...(url ? { gatewayUrl: url } : {}), ...(args ? { bootArgs: args } : {}) };
}

/** The files a personalization puts on the medium, as [path on the ISO, content]. */
export function personalizationFiles(p: Personalization): Array<[string, string]> {
  return [
    ...(p.deviceToken ? [[IMAGE_FILES.deviceToken, `${p.deviceToken}\n`] as [string, string]] : []),
    ...(p.gatewayUrl ? [[IMAGE_FILES.gatewayUrl, `${p.gatewayUrl}\n`] as [string, string]] : []),
    ...(p.bootArgs ? [[IMAGE_FILES.bootConfig, `set erasure_args="${p.bootArgs}"\n`] as [string, string]] : []),
  ];
}

/** Writes the files to a private temporary folder; the caller removes it with `dispose`. */
export function stagePersonalization(p: Personalization): { files: Array<[string, string]>; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'erasure-personalize-'));
  const files = personalizationFiles(p).map(([isoPath, content], i): [string, string] => {
    const local = join(dir, String(i));
    writeFileSync(local, content, { mode: 0o600 });
    return [local, isoPath];
  });
  return { files, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
