// How Ink programs are bundled here: the CLI (scripts/build.mjs) and the bare
// Ink reference the benchmarks measure it against (bench/), the same way.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/** The project's own modules the patched Ink imports, found from where the build runs (the project root). */
const LINE_UPDATE = 'shop-inbox:terminal-line-update';
const FRAME_CACHE = 'shop-inbox:frame-cache';
const OWN_MODULES = {
  [LINE_UPDATE]: 'src/ui-kit/terminal-line-update.ts',
  [FRAME_CACHE]: 'src/ui-kit/frame-cache.ts',
};
const IMPORT_FRAME_CACHE = `import { FrameCache } from '${FRAME_CACHE}';`;

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
 * Ink imports its React devtools bridge only when DEV=true; a bundle that left
 * the optional package external would fail to load without it. The bridge is
 * replaced by nothing.
 */
const noDevtools = replaceModule(
  'react-devtools-core',
  'export default { initialize() {}, connectToDevTools() {} };',
);

/**
 * Ink draws nothing until exit when it believes it runs in CI (`CI` or
 * `CONTINUOUS_INTEGRATION` set and not "false"): a staff member whose shell
 * exports one, or a tmux server started from such a shell, got a blank
 * inbox. The CLI starts Ink only on a terminal, so it is never in CI.
 */
const neverInCi = replaceModule('is-in-ci', 'export default false;');

/**
 * Changes to Ink 6.8.0 and yoga-layout 3.2.1, in the CLI's bundle only, each
 * with why. Every change names the exact code it replaces: the build fails
 * loudly when a package changes it, so each one is looked at again on an
 * upgrade.
 */
const INK_PATCHES = [
  {
    /**
     * Yoga's WebAssembly is inlined as a data: URL, and its loader reads it
     * with fetch() whenever fetch exists: the first fetch loads Node's whole
     * HTTP client (undici), ~55 ms of start-up and ~10 MiB that nothing else
     * in the inbox uses. Its own fallback (atob) decodes the same bytes.
     */
    file: 'yoga-layout/dist/binaries/yoga-wasm-base64-esm.js',
    replace: [['function ya(){return w||"function"!=typeof fetch?', 'function ya(){return true?']],
  },
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
      /**
       * A changed line was rewritten whole, and each unchanged one cost a
       * move of its own: over SSH, moving the highlight one row sent two full
       * lines. Now only the changed cells of a line are sent, and a run of
       * unchanged lines is one move (src/ui-kit/terminal-line-update.ts).
       */
      [
        `            buffer.push(ansiEscapes.cursorTo(0) +
                nextLines[i] +
                ansiEscapes.eraseEndLine +`,
        `            buffer.push(lineUpdate(previousLines[i] ?? '', nextLines[i]) +`,
      ],
      ["stream.write(buffer.join(''));", "stream.write(collapseLineMoves(buffer.join('')));"],
      /**
       * The incremental renderer moves the cursor relative to where its last frame left it and
       * rewrites only what changed since that frame. After a resize neither holds: the terminal has
       * cut, moved or reflowed the rows (a burst of resizes left customers' names beside other
       * customers' phone numbers), and after ctrl-l the screen is whatever something else left. Then
       * the next frame is drawn whole from the top left (wholeScreen), whatever the screen holds: on
       * every new size of the terminal, and when Ink's `repaint()` asks.
       */
      [
        'const createIncremental = (stream, { showCursor = false } = {}) => {',
        `const createIncremental = (stream, { showCursor = false } = {}) => {
    let drawnForSize;
    let drawWhole = false;
    const forgetScreen = () => {
        previousOutput = '';
        previousLines = [];
        previousCursorPosition = undefined;
        cursorWasShown = false;
        hasHiddenCursor = false;
        drawWhole = true;
    };`,
      ],
      [
        `        if (!hasChanges(str, activeCursor)) {
            return false;
        }
        const nextLines = str.split('\\n');`,
        `        const size = stream.columns + 'x' + stream.rows;
        if (size !== drawnForSize) {
            drawnForSize = size;
            forgetScreen();
        }
        if (!hasChanges(str, activeCursor)) {
            return false;
        }
        const nextLines = str.split('\\n');`,
      ],
      [
        `            stream.write(returnPrefix +
                ansiEscapes.eraseLines(previousLines.length) +
                str +
                cursorSuffix);
            cursorWasShown = activeCursor !== undefined;`,
        `            stream.write((drawWhole
                ? wholeScreen(str)
                : returnPrefix + ansiEscapes.eraseLines(previousLines.length) + str) +
                cursorSuffix);
            drawWhole = false;
            cursorWasShown = activeCursor !== undefined;`,
      ],
      [
        `    return render;
};
const create = (stream`,
        `    render.repaint = forgetScreen;
    return render;
};
const create = (stream`,
      ],
      [
        "import ansiEscapes from 'ansi-escapes';",
        `import ansiEscapes from 'ansi-escapes';\nimport { collapseLineMoves, lineUpdate, wholeScreen } from '${LINE_UPDATE}';`,
      ],
    ],
  },
  {
    /**
     * Every frame measured and tokenized every line anew: the caches live in
     * the Output object and a new Output is made for each frame, so a key
     * press at 120×40 spent most of its ~30 ms on lines that had not changed.
     * - one cache is kept across frames, holding what the last two frames
     *   used (src/ui-kit/frame-cache.ts);
     * - clipping a line to a box it already fits in (most lines) is skipped,
     *   and real cuts are cached;
     * - blank cells are one shared object, so that a row whose cells are the
     *   same objects as the last frame's is known unchanged at a glance, and
     *   its text from the last frame is used again.
     */
    file: 'ink/build/output.js',
    replace: [
      ['caches = new OutputCaches();', 'caches = sharedOutputCaches();'],
      [
        'return sliceAnsi(line, from, to);',
        [
          'if (from === 0 && to >= width) return line;',
          "const clipKey = from + ':' + to + ':' + line;",
          'let clipped = this.caches.clips.get(clipKey);',
          'if (clipped === undefined) { clipped = sliceAnsi(line, from, to); this.caches.clips.set(clipKey, clipped); }',
          'return clipped;',
        ].join(' '),
      ],
      [
        `row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });`,
        'row.push(BLANK_CELL);',
      ],
      [
        `const generatedOutput = output
            .map(line => {
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return styledCharsToString(lineWithoutEmptyItems).trimEnd();
        })
            .join('\\n');`,
        `const previousRows = this.caches.rows;
        const nextRows = [];
        const generatedOutput = output
            .map((line, rowIndex) => {
            const previous = previousRows[rowIndex];
            if (previous && previous.cells.length === line.length && previous.cells.every((cell, index) => cell === line[index])) {
                nextRows.push(previous);
                return previous.text;
            }
            const text = lineText(line);
            nextRows.push({ cells: line, text });
            return text;
        })
            .join('\\n');
        this.caches.rows = nextRows;`,
      ],
      [
        'export default class Output {',
        `const BLANK_CELL = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });
const lineText = (line) => styledCharsToString(line.filter(item => item !== undefined)).trimEnd();
let sharedCaches;
function sharedOutputCaches() {
    if (sharedCaches === undefined) {
        sharedCaches = new OutputCaches();
        sharedCaches.widths = new FrameCache();
        sharedCaches.blockWidths = new FrameCache();
        sharedCaches.styledChars = new FrameCache();
        sharedCaches.clips = new FrameCache();
        sharedCaches.rows = [];
    }
    return sharedCaches;
}
export default class Output {`,
      ],
      ["import sliceAnsi from 'slice-ansi';", `import sliceAnsi from 'slice-ansi';\n${IMPORT_FRAME_CACHE}`],
    ],
  },
  {
    /** The width of every text, every frame, was measured anew: kept (what the last two frames used). */
    file: 'ink/build/render-node-to-output.js',
    replace: [
      [
        'const currentWidth = widestLine(text);',
        `let currentWidth = widestLines.get(text);
                if (currentWidth === undefined) { currentWidth = widestLine(text); widestLines.set(text, currentWidth); }`,
      ],
      [
        "import widestLine from 'widest-line';",
        `import widestLine from 'widest-line';\n${IMPORT_FRAME_CACHE}\nconst widestLines = new FrameCache();`,
      ],
    ],
  },
  {
    /**
     * Ink's caches of wrapped and measured texts grew for as long as the program ran: they hold what
     * the last two frames used.
     */
    file: 'ink/build/wrap-text.js',
    replace: [
      ["import wrapAnsi from 'wrap-ansi';", `import wrapAnsi from 'wrap-ansi';\n${IMPORT_FRAME_CACHE}`],
      ['const cache = {};', 'const cache = new FrameCache();'],
      ['const cachedText = cache[cacheKey];', 'const cachedText = cache.get(cacheKey);'],
      ['cache[cacheKey] = wrappedText;', 'cache.set(cacheKey, wrappedText);'],
    ],
  },
  {
    /**
     * Ink draws at most maxFps frames a second (15 in the inbox, so that a
     * burst of poll results costs a slow link one frame, not ten): a key
     * pressed within 66 ms of the last frame (the second of two quick keys, a
     * held j) waited for the limit, ~80 ms from key to screen. React commits
     * a key's change a few milliseconds after the key is handled, so the
     * inbox marks the next frame as one to draw at once (run-inbox.tsx);
     * frames that no key caused keep the limit.
     */
    file: 'ink/build/ink.js',
    replace: [
      [
        `            this.rootNode.onRender = () => {
                this.hasPendingThrottledRender = true;`,
        `            this.rootNode.onRender = () => {
                if (this.nextFrameAtOnce) {
                    this.nextFrameAtOnce = false;
                    throttled.cancel();
                    this.onRender();
                    return;
                }
                this.hasPendingThrottledRender = true;`,
      ],
      /**
       * A terminal that does not read (a frozen SSH session) must not stop the process: the stream Ink
       * draws through (src/ui-kit/terminal-writer.ts) says when the terminal has not yet taken the last
       * frame, and then no frame is drawn until it has; the frame drawn then is the state of that
       * moment. Each frame drawn also turns over the caches of the frames before (frame-cache.ts).
       */
      [
        `    onRender = () => {
        this.hasPendingThrottledRender = false;
        if (this.isUnmounted) {
            return;
        }`,
        `    onRender = () => {
        this.hasPendingThrottledRender = false;
        if (this.isUnmounted) {
            return;
        }
        if (this.options.stdout.deferFrame?.(this.onRender)) {
            return;
        }
        nextFrame();`,
      ],
      /**
       * On a resize Ink drew at once (50 frames for 50 resizes in a quarter second), and erased its
       * last frame's rows relative to a cursor the terminal had just moved. Now the frame limit
       * applies, the last resize is always followed by a frame, and that frame comes after every
       * other listener of the resize (the store's new size), drawn whole (log-update above).
       */
      [
        `    resized = () => {
        const currentWidth = this.getTerminalWidth();
        if (currentWidth < this.lastTerminalWidth) {
            // We clear the screen when decreasing terminal width to prevent duplicate overlapping re-renders.
            this.log.clear();
            this.lastOutput = '';
            this.lastOutputToRender = '';
        }
        this.calculateLayout();
        this.onRender();
        this.lastTerminalWidth = currentWidth;
    };`,
        `    resized = () => {
        this.lastOutput = '';
        this.lastOutputToRender = '';
        queueMicrotask(() => {
            if (this.isUnmounted) {
                return;
            }
            this.calculateLayout();
            this.rootNode.onRender();
        });
    };
    /** ctrl-l: the whole screen drawn again from scratch, now. */
    repaint = () => {
        if (this.isUnmounted) {
            return;
        }
        this.log.repaint?.();
        this.lastOutput = '';
        this.lastOutputToRender = '';
        this.calculateLayout();
        this.onRender();
    };`,
      ],
      [
        "import logUpdate from './log-update.js';",
        `import logUpdate from './log-update.js';\nimport { nextFrame } from '${FRAME_CACHE}';`,
      ],
    ],
  },
  {
    file: 'ink/build/render.js',
    replace: [
      [
        '        clear: instance.clear,\n    };',
        '        clear: instance.clear,\n        drawNextFrameAtOnce: () => { instance.nextFrameAtOnce = true; },\n        repaint: () => instance.repaint(),\n    };',
      ],
    ],
  },
  {
    file: 'ink/build/measure-text.js',
    replace: [
      [
        "import widestLine from 'widest-line';",
        `import widestLine from 'widest-line';\n${IMPORT_FRAME_CACHE}`,
      ],
      ['const cache = new Map();', 'const cache = new FrameCache();'],
    ],
  },
];

/** Ink and Yoga as patched above, for the CLI's bundle (the benchmark's reference uses them as shipped). */
export const patchedInk = {
  name: 'patch-ink',
  setup(pluginBuild) {
    neverInCi.setup(pluginBuild);
    for (const [name, path] of Object.entries(OWN_MODULES)) {
      pluginBuild.onResolve({ filter: new RegExp(`^${name}$`) }, () => ({
        path: resolve(pluginBuild.initialOptions.absWorkingDir ?? process.cwd(), path),
      }));
    }
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
  // jsonc-parser's "main" is a UMD build whose require()s of its own files esbuild cannot follow; its ESM
  // build ("module") bundles whole.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
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
