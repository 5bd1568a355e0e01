import { FontUnavailableError, type FontSource } from '../domain/certificates/fonts.js';

/** The fonts a certificate's page is regenerated with, or why they cannot be had. */
export type PageFonts = { ok: true; fonts: FontSource } | { ok: false; error: string };

/**
 * The page check's fonts, read and parsed at most once per verify-pdf run. A lot certificate
 * carries hundreds of certificates, each regenerated for the page comparison; parsing the same
 * font files for each one cost about a seventh of verifying a lot. A missing font is kept too, so
 * every certificate of the run is refused with the same message (fail closed); any other error
 * is not a font problem and is thrown each time.
 */
export function fontsOnce(load: () => FontSource): () => PageFonts {
  let loaded: PageFonts | undefined;
  return () => {
    if (loaded) return loaded;
    try {
      loaded = { ok: true, fonts: load() };
    } catch (error) {
      if (!(error instanceof FontUnavailableError)) throw error;
      loaded = { ok: false, error: error.message };
    }
    return loaded;
  };
}
