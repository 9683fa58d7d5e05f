// The layers of src/, and the rules that keep imports running down them
// (ARCHITECTURE.md draws them). `npm run layers` checks every import, type-only
// ones too, and `npm test` runs it: a wrong import fails with the rule's name.

/**
 * Bottom to top. A module may import its own layer and the layers below,
 * never one above; no import circle anywhere, within a layer neither. Every
 * folder of src/ belongs to exactly one layer (test/architecture/layers.test.ts
 * fails naming a folder that has none).
 */
const LAYERS = [
  { level: 0, name: 'foundation', folders: ['text', 'contract', 'rules'] },
  { level: 1, name: 'data', folders: ['api', 'store'] },
  { level: 2, name: 'services', folders: ['config', 'poller', 'outbox', 'hub'] },
  { level: 3, name: 'user actions', folders: ['user-actions'] },
  { level: 4, name: 'session', folders: ['session'] },
  { level: 5, name: 'ui kit', folders: ['ui-kit'] },
  { level: 6, name: 'screens', folders: ['panes', 'wallboard'] },
  { level: 7, name: 'shell', folders: ['shell'] },
  { level: 8, name: 'command line', folders: ['cli'], files: ['cli.ts'] },
];

/** The simulator: a tool beside the layers, on the contract and the text helpers only; only the command line starts it. */
const SIMULATOR = {
  folder: 'sim',
  mayImport: ['contract', 'text'],
  importedBy: ['cli'],
  importedByFiles: ['cli.ts'],
};

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The paths of one folder (and all below it) or one file of src/, as a regular expression. */
const folderPath = (folder) => `^src/${escapeRegExp(folder)}/`;
const filePath = (file) => `^src/${escapeRegExp(file)}$`;
const pathsOf = (layer) => [...layer.folders.map(folderPath), ...(layer.files ?? []).map(filePath)];
const named = (layer) => [...layer.folders, ...(layer.files ?? [])];

/** One rule per folder and higher layer: "layer: store (1) may not import shell (7)". */
const upwardImports = LAYERS.flatMap((lower) =>
  named(lower).flatMap((from, index) =>
    LAYERS.filter((higher) => higher.level > lower.level).flatMap((higher) =>
      named(higher).map((to, toIndex) => ({
        name: `layer: ${from} (${lower.level}) may not import ${to} (${higher.level})`,
        comment: `${from} is in the ${lower.name} layer (${lower.level}); ${to} is in the ${higher.name} layer (${higher.level}), above it. Imports run down only: move the code, or pass it in from above (ARCHITECTURE.md).`,
        severity: 'error',
        from: { path: pathsOf(lower)[index] },
        to: { path: pathsOf(higher)[toIndex] },
      })),
    ),
  ),
);

const knownPaths = [...LAYERS.flatMap(pathsOf), folderPath(SIMULATOR.folder)];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'An import circle: these modules cannot be understood, tested or loaded one without the others. Break it by moving the shared part down a layer, or by an interface declared below and implemented above.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...upwardImports,
    {
      name: 'sim: only the command line imports the simulator',
      comment:
        'src/sim/ is a tool (the demo, the tests): the inbox itself never loads it. Only src/cli/ (the sim command, --demo) may import it; tests may too.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: [
          folderPath(SIMULATOR.folder),
          ...SIMULATOR.importedBy.map(folderPath),
          ...SIMULATOR.importedByFiles.map(filePath),
        ],
      },
      to: { path: folderPath(SIMULATOR.folder) },
    },
    {
      name: 'sim: the simulator imports only the contract and the text helpers',
      comment:
        'The simulator keeps the reference rules on its own: it shares the contract (one source for the schemas) and the text helpers with the client, and nothing else.',
      severity: 'error',
      from: { path: folderPath(SIMULATOR.folder) },
      to: {
        path: '^src/',
        pathNot: [folderPath(SIMULATOR.folder), ...SIMULATOR.mayImport.map(folderPath)],
      },
    },
    {
      name: 'layers: every folder of src/ has a layer',
      comment:
        'A module in a folder the layer table does not name: add the folder to LAYERS in .dependency-cruiser.cjs (and to ARCHITECTURE.md).',
      severity: 'error',
      from: { path: '^src/', pathNot: knownPaths },
      to: {},
    },
    {
      name: 'layers: nothing imports a module of an unknown folder',
      comment:
        'A module in a folder the layer table does not name: add the folder to LAYERS in .dependency-cruiser.cjs (and to ARCHITECTURE.md).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: knownPaths },
    },
    {
      name: 'no-orphans',
      comment:
        'A module nothing imports and that imports nothing: dead code, or a file forgotten on its way somewhere.',
      severity: 'error',
      from: { orphan: true, path: '^src/', pathNot: '\\.d\\.ts$' },
      to: {},
    },
  ],
  options: {
    // Type-only imports count: a type could otherwise carry a circle or an upward import unseen.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
  },
};

// For test/architecture/layers.test.ts; not enumerable, because dependency-cruiser refuses unknown keys.
Object.defineProperty(module.exports, 'layers', { value: { LAYERS, SIMULATOR }, enumerable: false });
