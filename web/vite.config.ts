import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const COMPRESSIBLE = /\.(?:html|js|mjs|css|json|svg|txt)$/;

/**
 * Writes name.br and name.gz beside every text file of the build (kept only when smaller), so
 * Dash serves them with Content-Encoding instead of compressing on each request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
    );
  return {
    name: 'dash-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file) || statSync(file).size < 512) continue;
        const raw = readFileSync(file);
        const br = brotliCompressSync(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

// `npm run dev` proxies the API and the theme assets to a running Dash (make run) so the SPA talks only to /api.
const dashUrl = process.env.DASH_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  // 'hidden': maps are written for debugging on the server but not linked from the bundles
  // (and Dash never serves .map files).
  build: { outDir: 'dist', assetsDir: 'assets', sourcemap: 'hidden' },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: dashUrl, changeOrigin: false },
      '/theme': { target: dashUrl, changeOrigin: false },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // jsdom page tests take 1–2 s on a quiet 2-core machine; the default 5 s fails them under load.
    testTimeout: 20_000,
  },
});
