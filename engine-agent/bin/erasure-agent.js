#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): its first line runs before libuv starts its threadpool,
// which an ES module entry is too late for. Every drive is erased at once, each with a few
// blocking direct-I/O requests in flight on that pool (4 threads by default): a slow drive's
// requests would hold all four and stall the fast drives.
process.env.UV_THREADPOOL_SIZE ??= '128';
import('../dist/main.js');
