import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API, the auth provider and the translation files are served by the Fastify server
// (`npm start`, port 3000). In development Vite serves the app and forwards those paths.
// Keys starting with ^ are regular expressions: `/api` must not swallow e.g. `/apiary`.
const backend = process.env.SPRECHSTUNDE_BACKEND_URL ?? 'http://localhost:3000';
const proxy = {
  '^/api(/|$)': { target: backend, changeOrigin: false },
  '^/auth(/|$)': { target: backend, changeOrigin: false },
  '^/locales/': { target: backend, changeOrigin: false },
};

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
});
