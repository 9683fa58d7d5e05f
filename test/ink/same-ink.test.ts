/**
 * The UI tests and the built CLI run the same Ink: patched in node_modules at install
 * (patches/README.md), bundled as it is. Here: node_modules holds every patch; a small Ink program
 * writes the same bytes in-process as bundled the way the CLI is; those bytes are the patched Ink's;
 * and dist/ holds the patched Ink.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { INK_BUNDLE } from '../../scripts/bundle-options.mjs';
import { missingHunks } from '../../scripts/ink-patches.mjs';
import { probeInk } from '../support/ink-probe.js';

const ESC = '\u001B';

/** The probe bundled as the CLI is (scripts/build.mjs's Ink options), run in a Node of its own. */
async function probeBundled(): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-ink-probe-'));
  try {
    const outfile = join(dir, 'probe.mjs');
    await build({
      ...INK_BUNDLE,
      stdin: {
        contents:
          "import { probeInk } from './ink-probe.tsx'; process.stdout.write(JSON.stringify(await probeInk()));",
        resolveDir: resolve('test/support'),
        loader: 'ts',
      },
      outfile,
      logLevel: 'error',
    });
    // As CI runs the suite (CI=true): the patched Ink draws the same wherever it runs.
    const run = spawnSync(process.execPath, [outfile], {
      encoding: 'utf8',
      timeout: 15_000,
      env: { ...process.env, CI: 'true' },
    });
    expect(run.status, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as string[];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('Ink as the tests and the bundle run it', () => {
  it('node_modules holds every hunk of patches/ (npm install applies them)', async () => {
    expect(await missingHunks()).toEqual([]);
  });

  it('writes the same bytes in-process as bundled like the CLI, and they are the patched Ink’s', async () => {
    const inProcess = await probeInk();
    expect(await probeBundled()).toEqual(inProcess);

    // The highlight moved from the first row of six to the second, as the patched Ink writes it: up
    // by the whole frame (it ended with a line break; Ink as shipped goes up 5 and lands a row low), only
    // the changed cell of each changed row (not the row again, erased to its end), the four rows below
    // as one move (not four ESC[E).
    expect(inProcess).toContain(`${ESC}[6A${ESC}[1G \n${ESC}[1G>\n${ESC}[4E`);
    // After the resize and after the repaint, the frame is drawn whole from the top left.
    const whole = inProcess.filter((bytes) => bytes.includes(`${ESC}[0m${ESC}[H`));
    expect(whole.length).toBeGreaterThanOrEqual(2);
    for (const frame of whole) expect(frame).toContain('Flo Gray');
  });

  it('dist/ holds the patched Ink (built from node_modules by the tests’ global setup)', async () => {
    const chunks = await readdir('dist/chunks');
    const sources = await Promise.all(
      ['dist/cli.js', ...chunks.map((chunk) => join('dist/chunks', chunk))].map((path) =>
        readFile(path, 'utf8'),
      ),
    );
    const bundle = sources.join('\n');
    // Property names esbuild keeps as they are, written only by the patches.
    for (const name of ['nextFrameAtOnce', 'deferFrame', 'drawNextFrameAtOnce', 'collapseLineMoves'])
      expect(bundle, name).toContain(name);
  });
});
