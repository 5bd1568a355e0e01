import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS } from '../preload/bridge.js';
import { loadElectron, type BrowserWindowOptions, type ElectronApi } from './electron-api.js';
import { runElectronShell } from './electron-shell.js';

type Listener = (...args: any[]) => unknown;

/**
 * A recording stand-in for the Electron runtime (typed by Electron's own declarations where the
 * shell reads them): it keeps every handler the shell installs.
 */
function fakeElectron(opts: { lockTaken?: boolean } = {}) {
  const appHandlers: Record<string, Listener> = {};
  const ipc: Record<string, Listener> = {};
  const log: string[] = [];
  const perms: { request?: Listener; check?: Listener } = {};
  const contents = () => {
    const handlers: Record<string, Listener> = {};
    let openHandler: Listener | undefined;
    const wc = {
      handlers,
      open: () => openHandler,
      on: (event: string, l: Listener) => void (handlers[event] = l),
      setWindowOpenHandler: (h: Listener) => void (openHandler = h),
      getURL: () => 'http://127.0.0.1:7070/',
      reload: () => void log.push('reload'),
      forcefullyCrashRenderer: () => void log.push('crash renderer'),
    };
    return wc;
  };
  const windows: Array<{ options: BrowserWindowOptions; loaded: string[] }> = [];
  const api = {
    app: {
      requestSingleInstanceLock: () => !opts.lockTaken,
      whenReady: async () => undefined,
      quit: () => void log.push('quit'),
      on: (event: string, l: Listener) => void (appHandlers[event] = l),
    } as never,
    BrowserWindow: class {
      readonly webContents = contents();
      readonly loaded: string[] = [];
      readonly handlers: Record<string, Listener> = {};
      on(event: string, l: Listener) {
        this.handlers[event] = l;
      }
      constructor(readonly options: BrowserWindowOptions) {
        windows.push(this);
      }
      async loadURL(u: string) {
        this.loaded.push(u);
      }
      once() {}
      show() {}
      focus() {}
      isMinimized() {
        return false;
      }
      restore() {}
    } as never,
    Menu: { setApplicationMenu: (m: null) => void log.push(`menu:${String(m)}`) },
    ipcMain: { on: (channel: string, l: Listener) => void (ipc[channel] = l) },
    session: { defaultSession: { setPermissionRequestHandler: (h: Listener) => void (perms.request = h), setPermissionCheckHandler: (h: Listener) => void (perms.check = h) } },
  } as unknown as ElectronApi;
  return { api, appHandlers, ipc, log, perms, windows, contents };
}

const settings = { agentUrl: new URL('http://127.0.0.1:7070/'), windowed: false, preloadPath: '/k/preload.cjs', retryMs: 5, schedule: (fn: () => void) => fn() };

describe('the Electron shell', () => {
  it('opens one locked-down kiosk window on the agent URL with no menu', async () => {
    const e = fakeElectron();
    await runElectronShell(e.api, settings);
    expect(e.windows).toHaveLength(1);
    const { options, loaded } = e.windows[0]!;
    expect(options.kiosk).toBe(true);
    expect(options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, devTools: false, webviewTag: false, preload: '/k/preload.cjs' });
    expect(loaded).toEqual(['http://127.0.0.1:7070/']);
    expect(e.log).toContain('menu:null');
  });

  it('quits at once when another kiosk instance holds the lock', async () => {
    const e = fakeElectron({ lockTaken: true });
    expect(await runElectronShell(e.api, settings)).toBeUndefined();
    expect(e.log).toEqual(['quit']);
    expect(e.windows).toEqual([]);
  });

  it('cancels navigation away from the agent, denies new windows and webviews', async () => {
    const e = fakeElectron();
    await runElectronShell(e.api, settings);
    const wc = e.contents();
    e.appHandlers['web-contents-created']?.({}, wc);
    const attempt = (event: string, url: string) => {
      let prevented = false;
      wc.handlers[event]?.({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(attempt('will-navigate', 'https://example.com/')).toBe(true);
    expect(attempt('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(attempt('will-navigate', 'http://127.0.0.1:7070/#/tests')).toBe(false);
    expect(attempt('will-attach-webview', '')).toBe(true);
    expect(wc.open()?.({ url: 'http://127.0.0.1:7070/' })).toEqual({ action: 'deny' });
  });

  it('grants only media to the agent page and exits only when the agent page asks', async () => {
    const e = fakeElectron();
    await runElectronShell(e.api, settings);
    const grant = (permission: string, requestingUrl: string) => {
      let granted: boolean | undefined;
      e.perms.request?.({ getURL: () => requestingUrl }, permission, (g: boolean) => (granted = g), { requestingUrl });
      return granted;
    };
    expect(grant('media', 'http://127.0.0.1:7070/')).toBe(true);
    expect(grant('geolocation', 'http://127.0.0.1:7070/')).toBe(false);
    expect(e.perms.check?.(null, 'media', 'https://evil.example')).toBe(false);
    e.ipc[IPC_CHANNELS.exit]?.({ senderFrame: { url: 'https://evil.example/' } });
    expect(e.log).not.toContain('quit');
    e.ipc[IPC_CHANNELS.exit]?.({ senderFrame: { url: 'http://127.0.0.1:7070/' } });
    expect(e.log).toContain('quit');
  });

  it('reloads the agent URL when the main frame failed to load (agent still starting)', async () => {
    const e = fakeElectron();
    const win = await runElectronShell(e.api, settings);
    (win?.webContents as unknown as { handlers: Record<string, Listener> }).handlers['did-fail-load']?.({}, -102, 'refused', settings.agentUrl.href, true);
    expect(e.windows[0]?.loaded).toEqual(['http://127.0.0.1:7070/', 'http://127.0.0.1:7070/']);
  });
});

describe('the Electron shell keeps its page on screen', () => {
  it('reloads a page whose renderer is gone and reports the reload with its reason', async () => {
    const e = fakeElectron();
    const reports: unknown[] = [];
    const win = await runElectronShell(e.api, { ...settings, report: (r) => void reports.push(r) });
    (win?.webContents as unknown as { handlers: Record<string, Listener> }).handlers['render-process-gone']?.({}, { reason: 'oom', exitCode: 9 });
    expect(e.log).toContain('reload');
    expect(reports).toEqual([{ status: 'reloaded', reason: "the page's renderer is gone (oom, code 9)" }]);
  });

  it('ends a renderer that stopped answering, so it is brought back as after a crash', async () => {
    const e = fakeElectron();
    const win = await runElectronShell(e.api, settings);
    (win as unknown as { handlers: Record<string, Listener> }).handlers.unresponsive?.();
    expect(e.log).toContain('crash renderer');
  });
});

describe('loadElectron', () => {
  it('tells the runtime API, the npm package’s binary path and a missing package apart', async () => {
    const e = fakeElectron();
    expect((await loadElectron(async () => e.api)).kind).toBe('runtime');
    expect(await loadElectron(async () => ({ default: '/opt/electron/electron' }))).toEqual({ kind: 'binary', path: '/opt/electron/electron' });
    expect(await loadElectron(async () => Promise.reject(new Error('Electron failed to install correctly')))).toEqual({ kind: 'missing', detail: 'the electron package could not fetch its binary (Electron failed to install correctly)' });
    expect((await loadElectron(async () => ({ default: 42 }))).kind).toBe('missing');
  });
});
