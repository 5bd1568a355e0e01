/**
 * The window's navigation lock, as one pure predicate so it can be tested without Electron:
 * only documents of the agent's own origin may load. Everything else (links, redirects,
 * `window.open`, file://, devtools://) is refused by the caller.
 */
export function isAllowedNavigation(target: string, agentOrigin: string): boolean {
  try {
    return new URL(target).origin === new URL(agentOrigin).origin;
  } catch {
    return false;
  }
}

/** Permissions the renderer may get: only camera/microphone ("media") for the webcam test, only from the agent's origin. */
export function isAllowedPermission(permission: string, requestingUrl: string, agentOrigin: string): boolean {
  return permission === 'media' && isAllowedNavigation(requestingUrl, agentOrigin);
}
