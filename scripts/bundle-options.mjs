// How Ink programs are bundled here: the CLI (scripts/build.mjs) and the bare
// Ink reference the benchmarks measure it against (bench/), the same way.
import { readFile } from 'node:fs/promises';

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
 * Changes to Ink 6.8.0, in the CLI's bundle only, each with why. Every change
 * names the exact code it replaces: the build fails loudly when a package
 * changes it, so each one is looked at again on an upgrade.
 */
const INK_PATCHES = [
  {
    /**
     * The incremental renderer moves up one row too few when the previous
     * frame ended with a newline (any frame shorter than the terminal, which
     * the inbox always is, so that Ink never clears the whole screen): every
     * changed line lands one row low. The cursor sits *below* such a frame,
     * so it must go up by the frame's full height.
     */
    file: 'ink/build/log-update.js',
    replace: [
      [
        'buffer.push(ansiEscapes.cursorUp(previousVisible - 1));',
        "buffer.push(ansiEscapes.cursorUp(previousVisible - (previousOutput.endsWith('\\n') ? 0 : 1)));",
      ],
    ],
  },
];

/** Ink as patched above, for the CLI's bundle (the benchmark's reference uses it as shipped). */
export const patchedInk = {
  name: 'patch-ink',
  setup(pluginBuild) {
    for (const patch of INK_PATCHES) {
      const filter = new RegExp(`[\\\\/]${patch.file.replaceAll('.', '\\.').replaceAll('/', '[\\\\/]')}$`);
      pluginBuild.onLoad({ filter }, async (args) => {
        let source = await readFile(args.path, 'utf8');
        for (const [find, replacement] of patch.replace) {
          if (!source.includes(find)) {
            throw new Error(`${patch.file} changed: check whether this still needs changing:\n${find}`);
          }
          source = source.replace(find, replacement);
        }
        return { contents: source, loader: 'js' };
      });
    }
  },
};

/**
 * esbuild options for a bundled Ink program as Ink ships: production React,
 * Node 20, ESM. The CLI adds `patchedInk`; the benchmark's bare Ink reference
 * is built with these alone.
 */
export const INK_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [noDevtools],
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
