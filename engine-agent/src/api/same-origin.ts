/** Methods that only read: every other one changes state. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request may change state: it carries no Origin (the CLI, curl, a test tool) or the
 * origin of the page served at this very Host. A page of any other origin in a browser (another
 * local server, a file, a sandboxed frame's `null`, a rebound name) is refused, whatever the body
 * parser would accept.
 */
export function sameOriginOrNone(method: string, origin: string | undefined, host: string | undefined): boolean {
  if (READ_METHODS.has(method.toUpperCase()) || origin === undefined) return true;
  return host !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`;
}
