// Bundles the CLI into one file, dist/cli.js: it starts about twice as fast as
// loading the same code from node_modules, which matters over a slow SSH link.
import { chmod, readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { INK_BUNDLE, patchedInk } from './bundle-options.mjs';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  ...INK_BUNDLE,
  plugins: [...INK_BUNDLE.plugins, patchedInk],
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.js',
  define: { ...INK_BUNDLE.define, __SHOP_INBOX_VERSION__: JSON.stringify(pkg.version) },
});
await chmod('dist/cli.js', 0o755);
