/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The Rust server (insights-cli serve) listens here by default; the dev server forwards
// the API and the built-in identity provider to it so the app runs same-origin in dev too.
const server = process.env.INSIGHTS_DEV_SERVER ?? 'http://127.0.0.1:8080';
const proxied = ['/graphql', '/version', '/log', '/oidc', '/healthz', '/upload', '/contributor-profile-picture', '/unsubscribe', '/export'];

export default defineConfig({
  base: '/insights/',
  plugins: [react()],
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: server, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    // No source maps in the published build: they would hand out the app's source.
    sourcemap: false,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
