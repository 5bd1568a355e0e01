/**
 * The contract between the Electron preload and the renderer. Types and channel names only:
 * the renderer imports this file as a type, so it must never pull in electron or node.
 */

/** IPC channel names, once (STYLE H): main listens on them, the preload sends on them. */
export const IPC_CHANNELS = { exit: 'kiosk:exit' } as const;
export type IpcChannel = (typeof IPC_CHANNELS)[keyof typeof IPC_CHANNELS];

/** What the preload exposes as `window.kioskShell`; absent when a plain Chromium window runs the renderer. */
export interface KioskBridge {
  readonly shell: 'electron';
  readonly versions: { readonly electron: string; readonly chrome: string };
  /** Leaves the kiosk (the operator's only way out of a full-screen kiosk window). */
  exit(): void;
}
