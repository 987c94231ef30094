import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
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
  plugins: [
    // Routes are files (src/console/routes): the plugin writes the route tree (routeTree.gen.ts, committed) and
    // splits each route's components into a chunk of their own, loaded when the route is first shown; its URL,
    // params, search, loader and beforeLoad stay in the first download, so any address is matched at once.
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/console/routes',
      generatedRouteTree: './src/console/routeTree.gen.ts',
      autoCodeSplitting: true,
      codeSplittingOptions: { defaultBehavior: [['component', 'errorComponent', 'notFoundComponent']] },
      quoteStyle: 'single',
      semicolons: true,
    }),
    react(),
    precompressed(),
  ],
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    // The first download (React, the router, zod, the contract and every route's loader) is about 520 kB.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // Each screen is a chunk of its own (src/console/routes, split by the router plugin). What the first visit
        // needs whatever the address (`$initial`: reached from main.tsx by static imports) stays one file: left to
        // the automatic splitting, it came as a dozen files shared with the screens, a dozen requests compressed
        // ~10 kB worse.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
  server: { proxy: { '/v1': 'http://127.0.0.1:3000' } },
});
