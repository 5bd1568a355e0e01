import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer is a plain web app the agent serves from kiosk/dist/renderer at its own origin
// (ARCHITECTURE #9), so it builds with relative asset paths and no dev-server assumptions.
export default defineConfig({
  root: fileURLToPath(new URL('./src/renderer', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // One bundle read from loopback: its size costs nothing worth a warning on every build.
    chunkSizeWarningLimit: 1024,
    // The timing report is advice for plugin authors; on a busy build machine it is only noise.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
