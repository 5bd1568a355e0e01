/** The page's one way to the server: JSON under /app/api with the session cookie and CSRF token. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';

/** Set once from /app/api/me; every write carries it (the server refuses writes without it). */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

export function getCsrfToken(): string {
  return csrfToken;
}

function toLogin(): never {
  const next = `${location.pathname}${location.search}`;
  location.assign(`/login?next=${encodeURIComponent(next)}`);
  throw new ApiError(401, 'signed out');
}

async function parse<T>(response: Response): Promise<T> {
  if (response.status === 401) toLogin();
  const text = await response.text();
  const body = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) {
    const message = typeof body === 'object' && body !== null && 'error' in body ? String((body as { error: unknown }).error) : `HTTP ${response.status}`;
    throw new ApiError(response.status, message);
  }
  return body as T;
}

export async function getJson<T>(path: string): Promise<T> {
  return parse<T>(await fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' }));
}

export async function sendJson<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-csrf-token': csrfToken };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return parse<T>(
    await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) }),
  );
}

/** PUTs a file's raw bytes (e.g. the account's logo) with its own type; the server checks the bytes. */
export async function sendFile<T>(path: string, file: Blob): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-csrf-token': csrfToken, 'content-type': file.type || 'application/octet-stream' };
  return parse<T>(await fetch(path, { method: 'PUT', headers, credentials: 'same-origin', body: file }));
}
