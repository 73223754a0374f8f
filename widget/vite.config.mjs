// The embeddable widget: one self-contained script (Preact included), built into widget/dist/.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact', legalComments: 'none' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2019',
    minify: 'esbuild',
    lib: {
      entry: 'src/main.tsx',
      formats: ['iife'],
      name: 'PlauditWidget',
      fileName: () => 'widget.js',
    },
  },
});
