/**
 * Every wire contract, and nothing that needs Node: the browser entry point
 * (`@erasure/shared/contracts`) the kiosk renderer and the web pages can bundle.
 */
export * from './common.js';
export * from './hardware.js';
export * from './dmi.js';
export * from './wipe.js';
export * from './wipe-health.js';
export * from './health-rules.js';
export * from './gateway.js';
export * from './internal.js';
export * from './validation.js';
export * from './job-details.js';
export * from './certificate-language.js';
export * from './agent-local.js';
export * from './agent-station.js';
export * from './agent-validation.js';
export * from './agent-screen.js';
export * from './public-api.js';
export * from './wipes-query.js';
export * from './floor.js';
// The method catalogue and erasure policy live beside the contracts so the browser bundles them too.
export * from '../erasure-methods.js';
export * from '../floor-forecast.js';
