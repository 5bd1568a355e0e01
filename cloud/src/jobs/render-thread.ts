/**
 * A certificate rendering thread (see `threadPoolRenderer`): parses the fonts once, then
 * renders one certificate + report pair per message and transfers the bytes back.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { loadFontSource, type FontFiles, type FontSource } from '../domain/certificates/fonts.js';
import { inProcessRenderer, type RenderInput } from './renderer.js';

const port = parentPort;
if (!port) throw new Error('render-thread.js runs only as a worker thread');

let fonts: FontSource | undefined;
try {
  fonts = loadFontSource((workerData as { fontFiles: FontFiles }).fontFiles, { readFile: (path) => new Uint8Array(readFileSync(path)) });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ fatal: error instanceof Error ? error.message : String(error) });
}

if (fonts) {
  const renderer = inProcessRenderer(fonts);
  port.on('message', async ({ id, input }: { id: number; input: RenderInput }) => {
    try {
      const { certificate, report } = await renderer.render(input);
      port.postMessage({ id, certificate, report }, [certificate.buffer as ArrayBuffer, report.buffer as ArrayBuffer]);
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
