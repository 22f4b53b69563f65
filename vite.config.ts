// The dashboard's web app: built by `npm run build` into dist/dashboard/app, served by the dashboard server.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'src/dashboard/app',
  base: '/',
  plugins: [react()],
  build: { outDir: '../../../dist/dashboard/app', emptyOutDir: true, sourcemap: false, assetsInlineLimit: 0 },
  logLevel: 'warn',
});
