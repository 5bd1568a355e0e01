/**
 * The few Electron APIs the main process uses, declared here because Electron's package (and
 * its binary) cannot be installed on every machine that builds the kiosk. `loadElectron` checks
 * the shape at run time before anything relies on these types.
 */

/** An event whose default action can be cancelled. */
export interface PreventableEvent {
  preventDefault(): void;
}

export interface WebContentsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (e: PreventableEvent, url: string) => void): void;
  on(event: 'will-attach-webview', listener: (e: PreventableEvent) => void): void;
  on(event: 'did-fail-load', listener: (e: unknown, code: number, description: string, url: string, isMainFrame: boolean) => void): void;
  on(event: 'render-process-gone', listener: () => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  getURL(): string;
  reload(): void;
}

export interface BrowserWindowOptions {
  readonly kiosk: boolean;
  readonly fullscreen: boolean;
  readonly width?: number;
  readonly height?: number;
  readonly autoHideMenuBar: boolean;
  readonly backgroundColor: string;
  readonly show: boolean;
  readonly webPreferences: {
    readonly preload: string;
    readonly contextIsolation: true;
    readonly sandbox: true;
    readonly nodeIntegration: false;
    readonly nodeIntegrationInSubFrames: false;
    readonly webviewTag: false;
    readonly devTools: false;
    readonly spellcheck: false;
    readonly navigateOnDragDrop: false;
  };
}

export interface BrowserWindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): void;
  show(): void;
  focus(): void;
  isMinimized(): boolean;
  restore(): void;
}

export interface SessionLike {
  setPermissionRequestHandler(handler: (contents: WebContentsLike, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void): void;
  setPermissionCheckHandler(handler: (contents: WebContentsLike | null, permission: string, requestingOrigin: string) => boolean): void;
}

/** The part of `import('electron')` the shell uses, inside the Electron runtime. */
export interface ElectronApi {
  readonly app: {
    requestSingleInstanceLock(): boolean;
    whenReady(): Promise<void>;
    quit(): void;
    on(event: 'second-instance' | 'window-all-closed', listener: () => void): void;
    on(event: 'web-contents-created', listener: (e: unknown, contents: WebContentsLike) => void): void;
  };
  readonly BrowserWindow: new (options: BrowserWindowOptions) => BrowserWindowLike;
  readonly Menu: { setApplicationMenu(menu: null): void };
  readonly ipcMain: { on(channel: string, listener: (event: { senderFrame: { url: string } | null }) => void): void };
  readonly session: { readonly defaultSession: SessionLike };
}

/** What importing `electron` gave: the runtime API, the npm package's path to its binary, or nothing. */
export type ElectronLoad = { readonly kind: 'runtime'; readonly api: ElectronApi } | { readonly kind: 'binary'; readonly path: string } | { readonly kind: 'missing'; readonly detail: string };

/**
 * Imports `electron` without making it a build dependency. Inside Electron the module is the API;
 * under plain node the npm package exports the path of its binary (and throws when the binary was
 * never downloaded), so the caller can re-launch itself in Electron or fall back to Chromium.
 */
export async function loadElectron(importer: (name: string) => Promise<unknown> = (name) => import(name)): Promise<ElectronLoad> {
  let mod: unknown;
  try {
    // A variable specifier keeps tsc and bundlers from resolving a package that may not exist.
    const name = 'electron';
    mod = await importer(name);
  } catch (error) {
    return { kind: 'missing', detail: error instanceof Error ? error.message : String(error) };
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
