import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { BOOTSWATCH_SKINS, bootstrapStylesheetPath, skinStylesheetPath, type TextDirection } from './src/shared/skins.js';
import { iconSprite } from './src/client/components/icon-paths.js';

const require = createRequire(import.meta.url);

const DIRECTIONS: readonly TextDirection[] = ['ltr', 'rtl'];

/** A minified stylesheet file, without its Google Fonts import (we make no third-party requests) and source map comment. */
function packageCss(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/@import\s+url\([^)]*\);?/g, '')
    .replace(/\/\*# sourceMappingURL=[^*]*\*\//g, '');
}

/** Bootstrap's own builds, named whole so the dependency check (knip) sees the package used. */
const BOOTSTRAP_FILES: Record<TextDirection, string> = {
  ltr: require.resolve('bootstrap/dist/css/bootstrap.min.css'),
  rtl: require.resolve('bootstrap/dist/css/bootstrap.rtl.min.css'),
};

/** A Bootswatch skin in one direction: Bootswatch ships each skin's RTL build (bootstrap.rtl.min.css) beside its LTR one. */
function skinCss(skin: string, dir: TextDirection): string {
  return packageCss(require.resolve(`bootswatch/dist/${skin}/bootstrap${dir === 'rtl' ? '.rtl' : ''}.min.css`));
}

/** Plain Bootstrap in one direction (its own RTL build for ar, he and fa pages). */
function bootstrapCss(dir: TextDirection): string {
  return packageCss(BOOTSTRAP_FILES[dir]);
}

/** Every stylesheet served by fixed name: its path under assets/ and how to read it. */
function fixedStylesheets(): { path: string; css: () => string }[] {
  return DIRECTIONS.flatMap((dir) => [
    { path: bootstrapStylesheetPath(dir), css: () => bootstrapCss(dir) },
    ...BOOTSWATCH_SKINS.map((skin) => ({ path: skinStylesheetPath(skin, dir), css: () => skinCss(skin, dir) })),
  ]);
}

/**
 * Emits Bootstrap and every skin, each in both directions, as assets/bootstrap/bootstrap[.rtl].css
 * and assets/skins/<name>[.rtl].css (fixed names, cache-busted by the server's ?v= query), so the
 * server links the ones of the page's direction and the member's skin in the HTML head before
 * any script runs: a right-to-left page is mirrored from its first paint.
 */
function bootstrapStylesheets(): Plugin {
  return {
    name: 'palaver-bootstrap-stylesheets',
    apply: (_config, env) => !env.isSsrBuild,
    configureServer(server) {
      const byPath = new Map(fixedStylesheets().map((f) => [`/assets/${f.path}`, f]));
      server.middlewares.use((req, res, next) => {
        const sheet = byPath.get((req.url ?? '').split('?')[0]!.replace(/^.*(?=\/assets\/)/, ''));
        if (!sheet) return next();
        res.setHeader('Content-Type', 'text/css');
        res.end(sheet.css());
      });
    },
    generateBundle() {
      for (const sheet of fixedStylesheets()) this.emitFile({ type: 'asset', fileName: `assets/${sheet.path}`, source: sheet.css() });
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
  plugins: [react(), bootstrapStylesheets(), iconSpritePlugin()],
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
