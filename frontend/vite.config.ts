import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { mantineStylesPerComponent } from './build/mantine-styles.ts';
import { scanServiceWorker } from './build/service-worker.ts';

export default defineConfig({
  plugins: [
    // Must come before the React plugin: it generates src/routeTree.gen.ts from src/routes.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: './src/routes',
      generatedRouteTree: './src/routeTree.gen.ts',
      // Tests beside the routes are not routes: without this, every build (and `npm start`) warned
      // that marketplace-routes.test.ts exports no Route.
      routeFileIgnorePattern: '\\.test\\.tsx?$',
    }),
    react(),
    mantineStylesPerComponent({ entry: '/src/main.tsx' }),
    scanServiceWorker(),
  ],
  server: {
    proxy: { '/api/': { target: 'http://localhost:8000', changeOrigin: true } },
  },
  // The backend serves this folder.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
});
