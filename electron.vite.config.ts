import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { contentSecurityPolicy } from './src/main/electron/security-policy.js';
import { BUILT_REPORT_STYLES, joinedStyles } from './src/main/report/report-styles.js';

// Three builds: the main process (plus the CLI and the SDK, which share its modules), the preload
// script, and the renderer. electron-vite 6 keeps package.json's `dependencies` external in main and preload
// by default (build.externalizeDeps): better-sqlite3 and sharp are native and must load from node_modules.
// Main is an ES module (package.json has "type": "module"), so its entries come out as out/main/<name>.js
// and package.json's `main` points at out/main/index.js (Electron's entry), `bin` at the CLI through bin/, and
// `exports` at out/main/sdk.js (`import { Sightline } from 'sightline'`), whose types tsconfig.sdk.json emits.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        input: {
          index: resolve('src/main/electron/main.ts'),
          cli: resolve('src/main/cli/main.ts'),
          sdk: resolve('src/main/automation/index.ts'),
        },
      },
    },
    plugins: [reportStyles()],
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require only `electron` and a few Node built-ins: nothing may stay external.
      externalizeDeps: false,
      rolldownOptions: {
        // The stop indicator has a preload of its own that exposes Stop and nothing else.
        input: { index: resolve('src/preload/index.ts'), 'stop-indicator': resolve('src/preload/stop-indicator.ts') },
        // A sandboxed preload cannot load ES modules: it must be one CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves the renderer unminified; it is a web bundle like any other, so minify it.
      minify: true,
      rolldownOptions: { input: { index: resolve('src/renderer/index.html'), 'stop-indicator': resolve('src/renderer/stop-indicator.html') } },
    },
    plugins: [react(), contentSecurityPolicyMeta()],
  },
});

/**
 * The shareable report's styles (the timeline's stylesheets and the report's) as out/main/report.css, beside
 * the code that inlines them into every report (src/main/report/report-styles.ts): the built app and the npm
 * package carry no src/.
 */
function reportStyles(): Plugin {
  return {
    name: 'sightline:report-styles',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: BUILT_REPORT_STYLES, source: joinedStyles(resolve('.')) });
    },
  };
}

const CSP_PLACEHOLDER = '__SIGHTLINE_CONTENT_SECURITY_POLICY__';

/**
 * Fills index.html's CSP meta tag from the same function that builds the response header, so the two cannot
 * drift apart. Under the dev server the policy admits the server and Vite's inline React refresh preamble.
 */
function contentSecurityPolicyMeta(): Plugin {
  return {
    name: 'sightline:content-security-policy-meta',
    transformIndexHtml: {
      order: 'pre',
      handler(html, context) {
        if (!html.includes(CSP_PLACEHOLDER)) {
          throw new Error(`src/renderer/index.html must carry the CSP meta tag with content="${CSP_PLACEHOLDER}".`);
        }
        const devServerUrl = context.server?.resolvedUrls?.local[0] ?? null;
        return html.replace(CSP_PLACEHOLDER, contentSecurityPolicy({ delivery: 'meta', devServerUrl }));
      },
    },
  };
}
