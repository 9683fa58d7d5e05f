// The V8 startup snapshot that "The first frame of a small program" asked to try, and to keep only if it
// pays. It was not kept (BENCHMARKS.md, "The V8 startup snapshot, tried and not kept"); this builds it
// again so that the figures can be measured on another Node:
//
//   node scripts/snapshot-trial.mjs            # or SHOP_INBOX_BENCH_NODE=/path/to/node
//   npm run bench -- --start --snapshot-blob node_modules/.cache/shop-inbox-snapshot/inbox.blob
//
// The inbox as one CommonJS file (a snapshot's script cannot load files), with what a snapshot cannot hold
// made at first use instead: Yoga's WebAssembly, Node's HTTP modules (on Node 20 node:http cannot even be
// loaded while a snapshot is built), and every Intl.Segmenter (ICU objects). Ink's top-level awaits (only
// for its devtools, under DEV=true) are taken out. Environment and terminal read at module level are those
// of the build: the start trace is off, and chalk's colours are set again at start.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { INK_BUNDLE } from './bundle-options.mjs';

const dir = join('node_modules', '.cache', 'shop-inbox-snapshot');
const node = process.env.SHOP_INBOX_BENCH_NODE || process.execPath;

/** Makes each `[from, to]` replacement in the file of a package matching `filter`; fails when one does not apply. */
function edit(name, filter, replacements) {
  return {
    name,
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter }, async (args) => {
        let text = await readFile(args.path, 'utf8');
        for (const [from, to] of replacements) {
          const edited = text.replace(from, to);
          if (edited === text)
            throw new Error(`${args.path} changed: the trial's edit "${name}" no longer applies`);
          text = edited;
        }
        return { contents: text, loader: 'js' };
      });
    },
  };
}

const inkWithoutDevtools = edit('ink-without-devtools', /ink[\\/]build[\\/]reconciler\.js$/, [
  [/\nif \(isDev\(\)\) \{\n {4}try \{\n {8}await import\('\.\/devtools\.js'\);[\s\S]*?\n\}\n/, '\n'],
  [
    /const packageJson = isDev\(\)[\s\S]*?\};/,
    'const packageJson = { name: undefined, version: undefined };',
  ],
]);

const yogaAfterSnapshot = edit('yoga-after-snapshot', /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/, [
  [
    'const Yoga = wrapAssembly(await loadYoga());\nexport default Yoga;',
    'let Yoga;\nexport { Yoga as default };\nexport async function instantiateYogaAfterSnapshot() { Yoga = wrapAssembly(await loadYoga()); }',
  ],
]);

/**
 * node:http and node:https as modules whose every member loads the real one at first use. Their Agent,
 * Server and message classes are stand-ins that take the real class's prototype when it loads, so that
 * classes extending them (our client's agents, the simulator's server) work once it has.
 */
const httpAtFirstUse = {
  name: 'http-at-first-use',
  setup(pluginBuild) {
    const namespace = 'http-at-first-use';
    pluginBuild.onResolve({ filter: /^(node:)?https?$/ }, (args) =>
      args.namespace === namespace
        ? { path: args.path, external: true }
        : { path: args.path.replace('node:', ''), namespace },
    );
    pluginBuild.onLoad({ filter: /.*/, namespace }, (args) => {
      const classes = ['Agent', 'Server', 'IncomingMessage', 'ServerResponse'];
      return {
        contents: `
let real;
const load = () => {
  if (!real) {
    real = require('node:${args.path}');
    for (const [standIn, name] of [${classes.map((name) => `[${name}, '${name}']`).join(', ')}]) {
      if (!real[name]) continue;
      Object.setPrototypeOf(standIn.prototype, real[name].prototype);
      Object.setPrototypeOf(standIn, real[name]);
    }
  }
  return real;
};
${classes.map((name) => `export function ${name}(...args) { return Reflect.construct(load().${name}, args, new.target ?? ${name}); }`).join('\n')}
export const request = (...args) => load().request(...args);
export const createServer = (...args) => load().createServer(...args);
export const STATUS_CODES = new Proxy({}, { get: (_, key) => load().STATUS_CODES[key] });
export default new Proxy({}, { get: (_, key) => load()[key] });
`,
        loader: 'js',
      };
    });
  },
};

/** Every Intl.Segmenter made at its first use: the modules that make one at load would abort the build. */
const segmenterAtFirstUse = `{
  const Segmenter = Intl.Segmenter;
  Intl.Segmenter = class {
    #args; #real;
    constructor(...args) { this.#args = args; }
    #get() { return (this.#real ??= new Segmenter(...this.#args)); }
    segment(text) { return this.#get().segment(text); }
    resolvedOptions() { return this.#get().resolvedOptions(); }
  };
}`;

await mkdir(dir, { recursive: true });
const script = join(dir, 'inbox.cjs');
const blob = join(dir, 'inbox.blob');
const pkg = JSON.parse(await readFile('package.json', 'utf8'));
await build({
  ...INK_BUNDLE,
  format: 'cjs',
  banner: { js: segmenterAtFirstUse },
  plugins: [
    httpAtFirstUse,
    ...INK_BUNDLE.plugins.filter((plugin) => plugin.name !== 'node-http-without-undici'),
    inkWithoutDevtools,
    yogaAfterSnapshot,
  ],
  entryPoints: ['bench/snapshot-entry.ts'],
  outfile: script,
  define: { ...INK_BUNDLE.define, __SHOP_INBOX_VERSION__: JSON.stringify(pkg.version) },
});
const made = spawnSync(node, ['--snapshot-blob', blob, '--build-snapshot', script], { encoding: 'utf8' });
if (made.status !== 0) {
  process.stderr.write(made.stderr);
  console.error(`the snapshot could not be built with ${node} (exit ${made.status ?? made.signal})`);
  process.exit(1);
}
console.log(blob);
