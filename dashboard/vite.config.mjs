// The business dashboard: a Preact single-page app served under /app/. No index.html: the API
// writes the page's shell itself, reading the entry's files from the manifest
// (functions/_shared/api/assets/dashboard.ts), so every file here has a content-hashed name.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/app/',
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact', legalComments: 'none' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    minify: 'esbuild',
    manifest: true,
    rollupOptions: {
      // Absolute: rollup resolves its input from the working directory, not from root. The
      // manifest still names the entry `src/main.tsx`, relative to root.
      input: path.join(root, 'src/main.tsx'),
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
});
