import { IPC_CHANNELS } from '../preload/bridge.js';
import type { ScreenReport } from '@erasure/shared';
import type { BrowserWindow } from 'electron';
import type { BrowserWindowOptions, ElectronApi } from './electron-api.js';
import { isAllowedNavigation, isAllowedPermission } from './navigation.js';

/** What the Electron shell needs to know. */
export interface ShellSettings {
  readonly agentUrl: URL;
  readonly windowed: boolean;
  /** Absolute path of the compiled preload (dist/preload/preload.cjs). */
  readonly preloadPath: string;
  /** Delay before reloading a page that failed to load (the agent may still be starting). */
  readonly retryMs: number;
  readonly schedule: (fn: () => void, ms: number) => void;
  /** Tells the agent about the screen (a reload and why), as the Chromium watchdog does; logged too. */
  readonly report?: (r: ScreenReport) => void;
}

/** The locked-down window (STYLE H): no node, sandboxed, isolated, no devtools, no webviews. */
export function windowOptions(s: Pick<ShellSettings, 'windowed' | 'preloadPath'>): BrowserWindowOptions {
  return {
    kiosk: !s.windowed,
    fullscreen: !s.windowed,
    ...(s.windowed ? { width: 1280, height: 800 } : {}),
    autoHideMenuBar: true,
    backgroundColor: '#0f172a',
    show: false,
    webPreferences: {
      preload: s.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      devTools: false,
      spellcheck: false,
      navigateOnDragDrop: false,
    },
  };
}

/**
 * Runs the kiosk inside Electron: one instance, no menu, navigation and permissions locked to
 * the agent's origin, new windows denied, and a failed load retried (the agent may start after
 * the shell on boot). Resolves with the window, or undefined when another instance already runs.
 */
export async function runElectronShell(electron: ElectronApi, s: ShellSettings): Promise<BrowserWindow | undefined> {
  const { app } = electron;
  const origin = s.agentUrl.origin;
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return undefined;
  }
  // Every web contents, including any a page might try to create, gets the same locks.
  app.on('web-contents-created', (_e, contents) => {
    const guard = (e: { preventDefault(): void }, url: string) => {
      if (!isAllowedNavigation(url, origin)) e.preventDefault();
    };
    contents.on('will-navigate', guard);
    contents.on('will-redirect', guard);
    contents.on('will-attach-webview', (e) => e.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
  await app.whenReady();
  electron.Menu.setApplicationMenu(null);
  const ses = electron.session.defaultSession;
  ses.setPermissionRequestHandler((contents, permission, callback, details) => callback(isAllowedPermission(permission, details.requestingUrl || contents.getURL(), origin)));
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isAllowedPermission(permission, requestingOrigin, origin));

  const win = new electron.BrowserWindow(windowOptions(s));
  win.once('ready-to-show', () => win.show());
  win.webContents.on('did-fail-load', (_e, _code, _description, _url, isMainFrame) => {
    if (isMainFrame) s.schedule(() => void win.loadURL(s.agentUrl.href).catch(() => undefined), s.retryMs);
  });
  // A crashed renderer would leave a blank kiosk; the agent holds the truth, so a reload loses nothing.
  win.webContents.on('render-process-gone', (_e, details) => {
    s.report?.({ status: 'reloaded', reason: `the page's renderer is gone (${details.reason}, code ${details.exitCode})` });
    win.webContents.reload();
  });
  // A hung page is ended, so the handler above brings it back as after a crash.
  win.on('unresponsive', () => win.webContents.forcefullyCrashRenderer());
  win.webContents.on('did-finish-load', () => s.report?.({ status: 'showing' }));
  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  electron.ipcMain.on(IPC_CHANNELS.exit, (event) => {
    // Only the agent's page may close the kiosk.
    if (event.senderFrame && isAllowedNavigation(event.senderFrame.url, origin)) app.quit();
  });
  await win.loadURL(s.agentUrl.href).catch(() => undefined); // did-fail-load schedules the retry
  return win;
}
