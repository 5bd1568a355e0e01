import type * as Electron from 'electron';

/**
 * The part of Electron's main-process API the shell uses, typed by Electron's own declarations
 * (the `electron` package, a dependency of the kiosk). The package installs without its binary,
 * which it fetches on first use; `loadElectron` checks the shape at run time before anything
 * relies on these types, so a machine that cannot fetch it falls back to Chromium.
 */
export type ElectronApi = Pick<typeof Electron, 'app' | 'BrowserWindow' | 'Menu' | 'ipcMain' | 'session'>;

/** The options of the kiosk's one window. */
export type BrowserWindowOptions = Electron.BrowserWindowConstructorOptions;

/** What importing `electron` gave: the runtime API, the npm package's path to its binary, or nothing. */
export type ElectronLoad = { readonly kind: 'runtime'; readonly api: ElectronApi } | { readonly kind: 'binary'; readonly path: string } | { readonly kind: 'missing'; readonly detail: string };

/**
 * Imports `electron` at run time. Inside Electron the module is the API; under plain node the npm
 * package exports the path of its binary, fetching it on first use (and throws when that fails:
 * no network to Electron's download host), so the caller can re-launch itself in Electron or fall
 * back to Chromium.
 */
export async function loadElectron(importer: (name: string) => Promise<unknown> = (name) => import(name)): Promise<ElectronLoad> {
  let mod: unknown;
  try {
    // A variable specifier keeps bundlers from inlining it: the module only means something at run time.
    const name = 'electron';
    mod = await importer(name);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The package's own words send the reader to reinstall it; what happened is that the fetch failed.
    return { kind: 'missing', detail: /failed to install correctly/i.test(message) ? `the electron package could not fetch its binary (${message})` : message };
  }
  const m = mod as Record<string, unknown> | null;
  const isApi = (x: unknown): x is ElectronApi => {
    const o = x as Record<string, unknown> | null;
    return Boolean(o) && typeof o?.app === 'object' && typeof o?.BrowserWindow === 'function';
  };
  // ESM namespaces carry the API as named exports and as `default`; either will do.
  if (isApi(m)) return { kind: 'runtime', api: m };
  if (isApi(m?.default)) return { kind: 'runtime', api: m.default };
  if (m && typeof m.default === 'string' && m.default.length > 0) return { kind: 'binary', path: m.default };
  return { kind: 'missing', detail: 'the electron module has neither the runtime API nor a binary path' };
}
