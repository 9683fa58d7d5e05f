// Bundles the CLI into one file, dist/cli.js: it starts about twice as fast as
// loading the same code from node_modules, which matters over a slow SSH link.
import { chmod, readFile } from 'node:fs/promises';
import { build } from 'esbuild';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

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
