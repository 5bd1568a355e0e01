export * from './contracts/index.js';
export * from './errors.js';
export * from './ids.js';
export * from './json-depth.js';
export * from './validate.js';
export * from './signing/service-hmac.js';
export * from './signing/device-token.js';
export * from './image-layout.js';
