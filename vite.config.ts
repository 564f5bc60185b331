import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { BOOTSWATCH_SKINS, isKnownSkin, skinStylesheetPath } from './src/shared/skins.js';
import { iconSprite } from './src/client/components/icon-paths.js';

const require = createRequire(import.meta.url);

/** Reads a Bootswatch skin without its Google Fonts import: we make no third-party requests. */
function skinCss(skin: string): string {
  const file = require.resolve(`bootswatch/dist/${skin}/bootstrap.min.css`);
  return readFileSync(file, 'utf8')
    .replace(/@import\s+url\([^)]*\);?/g, '')
    .replace(/\/\*# sourceMappingURL=[^*]*\*\//g, '');
}

/**
 * Emits every skin as assets/skins/<name>.css (fixed names, cache-busted by the server's
 * ?v= query) so the server can link the member's skin in the HTML head before any script runs.
 */
function bootswatchSkins(): Plugin {
  return {
    name: 'palaver-bootswatch-skins',
    apply: (_config, env) => !env.isSsrBuild,
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = /\/assets\/skins\/([a-z]+)\.css/.exec(req.url ?? '');
        if (!m || !isKnownSkin(m[1])) return next();
        res.setHeader('Content-Type', 'text/css');
        res.end(skinCss(m[1]));
      });
    },
    generateBundle() {
      for (const skin of BOOTSWATCH_SKINS) {
        this.emitFile({ type: 'asset', fileName: `assets/${skinStylesheetPath(skin)}`, source: skinCss(skin) });
      }
    },
  };
}

/**
 * The icon sprite: `import SPRITE from 'virtual:palaver-icons'` gives its file name
 * (icons-<content hash>.svg, under assets/, served immutable); the client build writes it.
 */
function iconSpritePlugin(): Plugin {
  const ID = 'virtual:palaver-icons';
  const sprite = iconSprite();
  const fileName = `icons-${createHash('sha256').update(sprite).digest('hex').slice(0, 10)}.svg`;
  let ssrBuild = false;
  return {
    name: 'palaver-icons',
    configResolved: (config) => {
      ssrBuild = Boolean(config.build.ssr);
    },
    resolveId: (id) => (id === ID ? `\0${ID}` : null),
    load: (id) => (id === `\0${ID}` ? `export default ${JSON.stringify(fileName)};` : null),
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (!(req.url ?? '').split('?')[0]!.endsWith(`/assets/${fileName}`)) return next();
        res.setHeader('Content-Type', 'image/svg+xml');
        res.end(sprite);
      });
    },
    generateBundle() {
      if (ssrBuild) return;
      this.emitFile({ type: 'asset', fileName: `assets/${fileName}`, source: sprite });
    },
  };
}

// Client: `vite build` → dist/client (manifest at dist/client/.vite/manifest.json).
// SSR:    `vite build --ssr src/client/entry-server.tsx --outDir dist/ssr`.
export default defineConfig(({ isSsrBuild }) => ({
  // Relative base: the server mounts the assets at {relative_path}/assets/, whatever that is.
  base: './',
  publicDir: false,
  plugins: [react(), bootswatchSkins(), iconSpritePlugin()],
  build: isSsrBuild
    ? {
        outDir: 'dist/ssr',
        emptyOutDir: true,
        target: 'node20',
        copyPublicDir: false,
        rolldownOptions: {
          // The server bundle is one file: the pages that import the composer form and the chat
          // room statically (compose, chats) beside their lazy imports split nothing here, and
          // the two INEFFECTIVE_DYNAMIC_IMPORT warnings each first build printed said only that.
          checks: { ineffectiveDynamicImport: false },
          output: {
            // The server keeps this bundle's source text in its heap for as long as it runs.
            // Unminified it held a few arrows and dashes, so V8 kept it as a two-byte string
            // (4.8 MB); whitespace stripped and every character ASCII, it is 1.9 MB of one-byte
            // text. Names are not mangled, so server-side render errors keep readable stacks.
            charset: 'ascii',
            minify: { mangle: false, compress: true, codegen: { removeWhitespace: true } },
          },
        },
      }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        assetsDir: 'assets',
        target: 'es2022',
        sourcemap: true,
        // zxcvbn's dictionaries (register page only, lazily) are one large chunk by nature.
        chunkSizeWarningLimit: 2000,
        rolldownOptions: {
          input: { main: 'src/client/main.tsx', 'service-worker': 'src/client/sw.ts' },
          output: {
            // The service worker needs a fixed name at the build root: the server serves it
            // at {relative_path}/service-worker.js so its scope covers the whole forum.
            entryFileNames: (chunk) => (chunk.name === 'service-worker' ? 'service-worker.js' : 'assets/[name]-[hash].js'),
          },
        },
      },
  // The server-render bundle always holds React's production build: React's packages pick their
  // build from NODE_ENV when they load, and `npm start` leaves it unset, so the server rendered
  // with React's development build (checks and warnings on every element: a quarter of a busy
  // server's time in the issue-58 profile). Folded at build time, the development code is not
  // even in the bundle.
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : undefined,
  ssr: {
    // Everything is bundled: plain Node then never resolves packages' CJS/ESM quirks
    // (react-bootstrap's helpers import directories, which Node's ESM loader refuses).
    noExternal: true,
  },
}));
