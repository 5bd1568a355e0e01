/**
 * The gateway as a library, for end-to-end tests that run it in-process beside the cloud.
 * The binary's entry point is `main.ts`; nothing here reads the environment or listens.
 */
export { buildGatewayApp, BODY_LIMIT_BYTES, type GatewayApp, type GatewayAppDeps } from './http/app.js';
export { FORWARDED_ROUTES, GATEWAY_ERRORS, type DeviceAnswer, type ForwardedRoute } from './http/answers.js';
export { createForwarder, forwardedBody, type CloudAnswer, type Forwarder, type ForwarderOptions } from './forward.js';
export { loadConfig, ConfigError, CONFIG_DEFAULTS, type GatewayConfig } from './config.js';
export { authenticateDevice, bearerOf, type DeviceIdentity } from './token.js';
export { systemClock, type Clock } from './clock.js';
