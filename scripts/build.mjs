// Bundles the CLI into dist/: cli.js, and chunks it loads as it needs them.
// A bundle starts about twice as fast as the same code loaded from
// node_modules, and splitting it means the inbox of a real shop never parses
// the simulator, its HTTP framework or the login and status commands: what a
// user waits for over a slow SSH link is what the command they ran needs.
import { chmod, readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';
import { INK_BUNDLE } from './bundle-options.mjs';
import { assertPatchesApplied } from './ink-patches.mjs';
import { phoneZoneData } from './phone-zone-data.mjs';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

// Ink and Yoga as the tests run them: patched at install (patches/). A node_modules without a patch
// (installed with --ignore-scripts, or a patch that no longer applies) is not bundled.
await assertPatchesApplied();
await rm('dist', { recursive: true, force: true });
await build({
  ...INK_BUNDLE,
  plugins: [...INK_BUNDLE.plugins, phoneZoneData('dist')],
  entryPoints: ['src/cli.ts'],
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { ...INK_BUNDLE.define, __SHOP_INBOX_VERSION__: JSON.stringify(pkg.version) },
});
await chmod('dist/cli.js', 0o755);
