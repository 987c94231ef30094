import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The console is a single-page app built into dist/console and served by the API server at `/`.
export default defineConfig({
  plugins: [react()],
  // One admin app loaded once per session: a single bundle of ~200 kB gzipped is fine.
  build: { outDir: 'dist/console', emptyOutDir: true, chunkSizeWarningLimit: 1000 },
  server: { proxy: { '/v1': 'http://127.0.0.1:3000' } },
});
