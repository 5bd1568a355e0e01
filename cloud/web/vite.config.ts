import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The pages are built into cloud/web-dist, which the cloud serves: index.html for every page
// route and the hashed bundles under /static/ (not /assets/, which is a page: the asset list).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../web-dist', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'static',
    sourcemap: true,
    target: 'es2022',
    // The timing report is advice for plugin authors; on a busy build machine it is only noise.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
