// Bundles the CLI into one file, dist/cli.js: it starts about twice as fast as
// loading the same code from node_modules, which matters over a slow SSH link.
import { chmod, readFile } from 'node:fs/promises';
import { build } from 'esbuild';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * Ink imports its React devtools bridge only when DEV=true; a bundle that left
 * the optional package external would fail to load without it. The bridge is
 * replaced by nothing.
 */
const noDevtools = {
  name: 'no-react-devtools',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^react-devtools-core$/ }, () => ({
      path: 'react-devtools-core',
      namespace: 'stub',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents: 'export default { initialize() {}, connectToDevTools() {} };',
      loader: 'js',
    }));
  },
};

/**
 * Ink 6.8.0's incremental renderer moves up one row too few when the previous
 * frame ended with a newline (any frame shorter than the terminal, which the
 * inbox always is, so that Ink never clears the whole screen): every changed
 * line lands one row low. The cursor sits *below* such a frame, so it must go
 * up by the frame's full height. Fixed here, in the bundle only, until Ink
 * ships the fix; the build fails loudly if the code it fixes changes.
 */
const INK_CURSOR_BUG = 'buffer.push(ansiEscapes.cursorUp(previousVisible - 1));';
const INK_CURSOR_FIX =
  "buffer.push(ansiEscapes.cursorUp(previousVisible - (previousOutput.endsWith('\\n') ? 0 : 1)));";
const fixInkIncrementalCursor = {
  name: 'fix-ink-incremental-cursor',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]ink[\\/]build[\\/]log-update\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(INK_CURSOR_BUG)) {
        throw new Error(`ink's log-update.js changed: check whether ${INK_CURSOR_BUG} still needs fixing`);
      }
      return { contents: source.replace(INK_CURSOR_BUG, INK_CURSOR_FIX), loader: 'js' };
    });
  },
};

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [noDevtools, fixInkIncrementalCursor],
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __createRequire } from 'node:module';",
      'const require = __createRequire(import.meta.url);',
    ].join('\n'),
  },
  define: {
    // React's development build leaks memory in a long-running Ink app.
    'process.env.NODE_ENV': '"production"',
    __SHOP_INBOX_VERSION__: JSON.stringify(pkg.version),
  },
});
await chmod('dist/cli.js', 0o755);
