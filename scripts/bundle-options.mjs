// How Ink programs are bundled here: the CLI (scripts/build.mjs) and the bare
// Ink reference the benchmarks measure it against (bench/), the same way.
// Ink itself is not changed here: node_modules holds it patched
// (patches/, applied at install), and the tests load the same files.

/** An esbuild plugin that puts `contents` where the package `name` is imported. */
function replaceModule(name, contents) {
  const namespace = `replaced-${name}`;
  return {
    name: namespace,
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: new RegExp(`^${name}$`) }, () => ({ path: name, namespace }));
      pluginBuild.onLoad({ filter: /.*/, namespace }, () => ({ contents, loader: 'js' }));
    },
  };
}

/**
 * Ink imports its React devtools bridge only when DEV=true, an optional
 * package nobody installs; a bundle must resolve every import when it is
 * built, so the bridge is replaced by nothing. (Not a change to what Ink does:
 * unbundled Ink never loads it either.)
 */
const noDevtools = replaceModule(
  'react-devtools-core',
  'export default { initialize() {}, connectToDevTools() {} };',
);

/**
 * `node:http` loaded with `require`, never as an ES module, wherever it is imported (our client, the metrics
 * server, the simulator's @hono/node-server). On Node 22 and later `node:http` has three lazy getters,
 * `WebSocket`, `CloseEvent` and `MessageEvent`, that load Node's fetch (undici); an ES module import of a
 * built-in, named or not, makes Node read every export to fill the module's namespace, so `import { request }
 * from 'node:http'` loads undici too: 25–45 ms and 8–13 MiB at every start that nothing here uses.
 * `require('node:http')` (the bundle's banner makes `require`) returns the exports object untouched, and
 * esbuild reads only the members each importer names, when it uses them. `node:https` has no such getters.
 */
const nodeHttpWithoutUndici = {
  name: 'node-http-without-undici',
  setup(pluginBuild) {
    const namespace = 'node-http-by-require';
    pluginBuild.onResolve({ filter: /^(node:)?http$/ }, (args) =>
      args.namespace === namespace ? { path: 'node:http', external: true } : { path: 'node:http', namespace },
    );
    pluginBuild.onLoad({ filter: /.*/, namespace }, () => ({
      contents: "module.exports = require('node:http');",
      loader: 'js',
    }));
  },
};

/**
 * Packages bundled from another file than their "main": jsonc-parser's "main" is a UMD build whose require()s
 * of its own files esbuild cannot follow; its ESM build ("module") bundles whole. Every bundle of the
 * project's code (the CLI, the tests' child processes) uses these.
 */
export const BUNDLE_ALIASES = { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' };

/**
 * esbuild options for a bundled Ink program: production React, Node 20, ESM.
 * The CLI and the benchmark's bare Ink reference are built with these; the
 * reference from Ink as shipped (bench/figures.ts).
 */
export const INK_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [noDevtools, nodeHttpWithoutUndici],
  alias: BUNDLE_ALIASES,
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
  },
};
