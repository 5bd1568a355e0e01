// The preload runs sandboxed (sandbox: true), where only CommonJS `require('electron')` exists,
// hence a .cts file. It exposes a few functions and nothing that reaches node or ipcRenderer itself.
import type { IPC_CHANNELS, KioskBridge } from './bridge.js';

interface PreloadElectron {
  contextBridge: { exposeInMainWorld(key: string, api: unknown): void };
  ipcRenderer: { send(channel: string): void };
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- sandboxed preloads only have require
const { contextBridge, ipcRenderer } = require('electron') as PreloadElectron;

// Repeated here because a sandboxed preload cannot require a sibling module; the type keeps
// it equal to the one channel table.
const EXIT_CHANNEL: (typeof IPC_CHANNELS)['exit'] = 'kiosk:exit';

const bridge = {
  shell: 'electron',
  versions: { electron: process.versions.electron ?? '', chrome: process.versions.chrome ?? '' },
  exit: () => ipcRenderer.send(EXIT_CHANNEL),
} satisfies KioskBridge;

contextBridge.exposeInMainWorld('kioskShell', bridge);
