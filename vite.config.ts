import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress';

const OUT_DIR = 'dist/console';

/** Brotli and gzip copies of the built files, served as they are to browsers that accept them. */
function precompressed(): Plugin {
  return {
    name: 'docspace-precompress',
    apply: 'build',
    closeBundle() {
      precompress(path.resolve(OUT_DIR));
    },
  };
}

// The console is a single-page app built into dist/console and served by the API server at `/`.
export default defineConfig({
  plugins: [react(), precompressed()],
  // One admin app loaded once per session: a single bundle of ~200 kB gzipped is fine.
  build: { outDir: OUT_DIR, emptyOutDir: true, chunkSizeWarningLimit: 1000 },
  server: { proxy: { '/v1': 'http://127.0.0.1:3000' } },
});
