/**
 * The layer rules of .dependency-cruiser.cjs (`npm run layers`, part of
 * `npm test`): every folder of src/ has a layer, and the rules catch what
 * they are for. The rules are run by dependency-cruiser itself, on a small
 * tree of files written for each case, exactly as `npm run layers` runs them.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Layer {
  level: number;
  name: string;
  folders: string[];
  files?: string[];
}

const CONFIG = resolve('.dependency-cruiser.cjs');
const { LAYERS, SIMULATOR } = createRequire(import.meta.url)(CONFIG).layers as {
  LAYERS: Layer[];
  SIMULATOR: { folder: string };
};
const DEPCRUISE = resolve('node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

const knownFolders = [...LAYERS.flatMap((layer) => layer.folders), SIMULATOR.folder];
const knownFiles = LAYERS.flatMap((layer) => layer.files ?? []);

/** Every folder under src/, as "ui-kit/components", and the files directly in src/. */
async function sourceTree(): Promise<{ folders: string[]; files: string[] }> {
  const folders: string[] = [];
  const files: string[] = [];
  const walk = async (inside: string) => {
    for (const entry of await readdir(join('src', inside), { withFileTypes: true })) {
      const path = inside ? `${inside}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        folders.push(path);
        await walk(path);
      } else if (!inside) files.push(entry.name);
    }
  };
  await walk('');
  return { folders, files };
}

describe('the layer table', () => {
  it('gives every folder of src/ (and every file directly in it) a layer', async () => {
    const { folders, files } = await sourceTree();
    const homeless = folders.filter((folder) => !knownFolders.includes(folder.split('/')[0] as string));
    expect(
      homeless.map((folder) => `src/${folder}/`),
      'add these folders to LAYERS in .dependency-cruiser.cjs (and to ARCHITECTURE.md)',
    ).toEqual([]);
    const loose = files.filter((file) => !knownFiles.includes(file));
    expect(
      loose.map((file) => `src/${file}`),
      'put these files in a folder with a layer, or name them in LAYERS in .dependency-cruiser.cjs',
    ).toEqual([]);
  });

  it('names only folders that exist, each in one layer, the levels in order', async () => {
    const { folders, files } = await sourceTree();
    for (const folder of knownFolders) expect(folders, `src/${folder}/ is in the table`).toContain(folder);
    for (const file of knownFiles) expect(files, `src/${file} is in the table`).toContain(file);
    expect(new Set(knownFolders).size).toBe(knownFolders.length);
    expect(LAYERS.map((layer) => layer.level)).toEqual(LAYERS.map((_, index) => index));
  });
});

/** A violation as dependency-cruiser reports it. */
interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** Runs the project's rules, as `npm run layers` does, over a tree of files written for the test. */
async function cruise(dir: string): Promise<Violation[]> {
  const run = await promisify(execFile)(
    process.execPath,
    [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'json'],
    { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const result = JSON.parse(run.stdout) as {
    summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
  };
  return result.summary.violations.map(({ rule, from, to }) => ({ rule: rule.name, from, to }));
}

describe('the layer rules', () => {
  let dir: string;
  let violations: Violation[];
  const file = async (path: string, text: string) => {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shop-inbox-layers-'));
    await file(
      'tsconfig.json',
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
    );
    // Allowed: down the layers, within a layer, the command line starting the simulator.
    await file('src/text/sanitize.ts', 'export const sanitize = (text: string) => text;\n');
    await file(
      'src/store/app-store.ts',
      "import { sanitize } from '../text/sanitize.js';\nexport const store = sanitize('');\n",
    );
    await file(
      'src/store/selectors.ts',
      "import { store } from './app-store.js';\nexport const selected = store;\n",
    );
    await file(
      'src/shell/header.ts',
      "import { selected } from '../store/selectors.js';\nexport const header = selected;\n",
    );
    await file(
      'src/sim/world.ts',
      "import { sanitize } from '../text/sanitize.js';\nexport const world = sanitize;\n",
    );
    await file(
      'src/cli/sim-command.ts',
      "import { world } from '../sim/world.js';\nexport const sim = world;\n",
    );
    await file(
      'src/cli.ts',
      "import { sim } from './cli/sim-command.js';\nimport { header } from './shell/header.js';\nexport const cli = [sim, header];\n",
    );
    // Refused, one case each.
    await file(
      'src/store/counts.ts',
      "import { header } from '../shell/header.js';\nimport { store } from './app-store.js';\nexport const counts = [header, store];\n",
    );
    await file(
      'src/text/width.ts',
      "import type { Screen } from '../ui-kit/screen.js';\nimport { sanitize } from './sanitize.js';\nexport const width = (screen: Screen) => sanitize(String(screen));\n",
    );
    await file(
      'src/ui-kit/screen.ts',
      "import { sanitize } from '../text/sanitize.js';\nexport type Screen = ReturnType<typeof sanitize>;\n",
    );
    await file(
      'src/poller/plan.ts',
      "import { poll } from './poller.js';\nexport const plan = () => poll;\n",
    );
    await file(
      'src/poller/poller.ts',
      "import { plan } from './plan.js';\nexport const poll = () => plan;\n",
    );
    await file('src/shell/demo.ts', "import { world } from '../sim/world.js';\nexport const demo = world;\n");
    await file(
      'src/sim/seed.ts',
      "import { store } from '../store/app-store.js';\nexport const seed = store;\n",
    );
    await file(
      'src/gadgets/gadget.ts',
      "import { sanitize } from '../text/sanitize.js';\nexport const gadget = sanitize;\n",
    );
    await file(
      'src/rules/check.ts',
      "import { gadget } from '../gadgets/gadget.js';\nexport const check = gadget;\n",
    );
    await file('src/config/forgotten.ts', 'export const forgotten = 1;\n');
    violations = await cruise(dir);
  }, 60_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const found = (rule: string) => violations.filter((violation) => violation.rule === rule);

  it('refuses an import that runs up the layers, naming both layers', () => {
    expect(found('layer: store (1) may not import shell (7)')).toEqual([
      {
        rule: 'layer: store (1) may not import shell (7)',
        from: 'src/store/counts.ts',
        to: 'src/shell/header.ts',
      },
    ]);
  });

  it('counts a type-only import', () => {
    expect(found('layer: text (0) may not import ui-kit (5)')).toEqual([
      {
        rule: 'layer: text (0) may not import ui-kit (5)',
        from: 'src/text/width.ts',
        to: 'src/ui-kit/screen.ts',
      },
    ]);
  });

  it('refuses an import circle, also within one layer', () => {
    // One report per circle, from the module where dependency-cruiser met it.
    const circles = found('no-circular').map((violation) => [violation.from, violation.to].sort());
    expect(circles).toEqual([['src/poller/plan.ts', 'src/poller/poller.ts']]);
  });

  it('lets only the command line import the simulator, and the simulator only the contract and text', () => {
    expect(found('sim: only the command line imports the simulator')).toEqual([
      {
        rule: 'sim: only the command line imports the simulator',
        from: 'src/shell/demo.ts',
        to: 'src/sim/world.ts',
      },
    ]);
    expect(found('sim: the simulator imports only the contract and the text helpers')).toEqual([
      {
        rule: 'sim: the simulator imports only the contract and the text helpers',
        from: 'src/sim/seed.ts',
        to: 'src/store/app-store.ts',
      },
    ]);
  });

  it('refuses a folder the table does not name, and a module nothing uses', () => {
    expect(found('layers: every folder of src/ has a layer').map((violation) => violation.from)).toEqual([
      'src/gadgets/gadget.ts',
    ]);
    expect(
      found('layers: nothing imports a module of an unknown folder').map((violation) => violation.from),
    ).toEqual(['src/rules/check.ts']);
    expect(found('no-orphans').map((violation) => violation.from)).toEqual(['src/config/forgotten.ts']);
  });

  it('has nothing to say of imports that run down or stay in their layer', () => {
    const reported = new Set(violations.map((violation) => violation.from));
    for (const allowed of [
      'src/store/app-store.ts',
      'src/store/selectors.ts',
      'src/shell/header.ts',
      'src/sim/world.ts',
      'src/cli/sim-command.ts',
      'src/cli.ts',
      'src/ui-kit/screen.ts',
    ])
      expect(reported, allowed).not.toContain(allowed);
    expect(violations).toHaveLength(8);
  });
});
