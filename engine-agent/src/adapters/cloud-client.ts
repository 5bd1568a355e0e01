import { gatewayApi, parseUnknown, type GatewayApi } from '@erasure/shared';
import type { Static, TSchema } from '@sinclair/typebox';

/** A route name of the gateway API. */
export type RouteName = keyof GatewayApi;
type RouteOf<K extends RouteName> = GatewayApi[K];
/** Request body of a route (none for GET). */
export type BodyOf<K extends RouteName> = RouteOf<K> extends { body: infer B extends TSchema } ? Static<B> : undefined;
/** The 200 body of a route. */
export type OkOf<K extends RouteName> = Static<RouteOf<K>['response'][200]>;

/** Why a call did not produce a valid success body. */
export type ApiError =
  | { readonly kind: 'transport'; readonly message: string }
  /** A non-2xx answer; `body` is the parsed JSON (validated against the route's schema when it has one). */
  | { readonly kind: 'status'; readonly status: number; readonly body: unknown; readonly valid: boolean }
  /** A 2xx whose body does not match the contract: treated like a failure (fail closed). */
  | { readonly kind: 'invalid'; readonly status: number; readonly message: string };

/** Result of a call. */
export type CallResult<K extends RouteName> = { readonly ok: true; readonly status: number; readonly value: OkOf<K> } | { readonly ok: false; readonly error: ApiError };

/** The typed gateway client (STYLE D: one generic caller). */
export interface CloudClient {
  call<K extends RouteName>(name: K, ...body: BodyOf<K> extends undefined ? [] : [BodyOf<K>]): Promise<CallResult<K>>;
}

/** Settings of the client. */
export interface CloudClientConfig {
  readonly baseUrl: string;
  /** The device token (compact JWS); undefined sends no Authorization header and the gateway answers 401. */
  readonly token: string | undefined;
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
  /** Aborts every call of this client (serve's shutdown): an aborted call is a transport failure. */
  readonly signal?: AbortSignal;
}

/** Reads a JSON body; an unparsable body is `undefined`, never an exception. */
async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/**
 * Builds the client. Every answer arrives as `unknown` and is checked against the route's schema
 * for its status code (parseUnknown): a 2xx that does not conform is an error, not a success.
 */
export function createCloudClient(config: CloudClientConfig): CloudClient {
  const doFetch = config.fetch ?? fetch;
  const base = config.baseUrl.replace(/\/+$/, '');
  const callSignal = () => {
    const timeout = AbortSignal.timeout(config.timeoutMs ?? 30_000);
    return config.signal ? AbortSignal.any([config.signal, timeout]) : timeout;
  };
  return {
    async call(name, ...args) {
      const route = gatewayApi[name];
      const headers: Record<string, string> = {};
      if (config.token) headers.authorization = `Bearer ${config.token}`;
      let body: string | undefined;
      if (route.method === 'POST') {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(args[0] ?? {});
      }
      let response: Response;
      let parsed: unknown;
      try {
        response = await doFetch(`${base}${route.url}`, { method: route.method, headers, body, signal: callSignal() });
        parsed = await jsonOf(response);
      } catch (error) {
        return { ok: false, error: { kind: 'transport', message: (error as Error).message } };
      }
      const schema = (route.response as Readonly<Record<number, TSchema>>)[response.status];
      if (response.status >= 200 && response.status < 300) {
        // The 200 schema stands for every 2xx the route documents (201 on a first write).
        const check = parseUnknown(schema ?? route.response[200], parsed);
        if (!check.ok) return { ok: false, error: { kind: 'invalid', status: response.status, message: `${check.path}: ${check.message}` } };
        return { ok: true, status: response.status, value: check.value as never };
      }
      const valid = schema ? parseUnknown(schema, parsed).ok : false;
      return { ok: false, error: { kind: 'status', status: response.status, body: parsed, valid } };
    },
  };
}

/**
 * No answer from the erasure service: the gateway could not be reached, or it could not reach the
 * cloud (spec: 503 `validation_unavailable`). Still a denial for this call (fail closed); a
 * station bay waits and asks again (issue 32, lights-out). A garbled answer (502, a 2xx outside the
 * contract) is not "unreachable": it is a denial like any other.
 */
export function isUnreachable(error: ApiError): boolean {
  return error.kind === 'transport' || (error.kind === 'status' && error.status === 503);
}

/** A deny reason from a failed verify/check-in, or a description of what went wrong instead. */
export function denialReason(error: ApiError): string {
  if (error.kind === 'transport') return `gateway unreachable: ${error.message}`;
  if (error.kind === 'invalid') return `unparsable answer (${error.status}): ${error.message}`;
  const reason = (error.body as { reason?: unknown } | undefined)?.reason;
  if (typeof reason === 'string') return reason;
  const text = (error.body as { error?: unknown } | undefined)?.error;
  return typeof text === 'string' ? `${text} (${error.status})` : `HTTP ${error.status}`;
}
