import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// `npm run dev` proxies the API and the theme assets to a running Dash (make run) so the SPA talks only to /api.
const dashUrl = process.env.DASH_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: { outDir: 'dist', assetsDir: 'assets', sourcemap: true },
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
