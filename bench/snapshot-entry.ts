/**
 * The inbox from a V8 startup snapshot: the trial of the snapshot (scripts/snapshot-trial.mjs), not what
 * ships (see BENCHMARKS.md, "The V8 startup snapshot, tried and not kept"). While the snapshot is built,
 * the inbox's modules are loaded and run up to the point where a start begins; the process started from
 * the blob goes on from there.
 */
import { startupSnapshot } from 'node:v8';
import chalk from 'chalk';
// @ts-expect-error: added by the trial's build (scripts/snapshot-trial.mjs), Yoga's WebAssembly made after the snapshot.
import { instantiateYogaAfterSnapshot } from 'yoga-layout';
import { tuneRuntime } from '../src/cli/runtime-tuning.js';
import { runTuiCommand } from '../src/cli/tui-command.js';
// Loaded (and their modules run) while the snapshot is built, not at start.
import '../src/shell/run-inbox.js';
import '../src/shell/commands/keymap.js';

startupSnapshot.setDeserializeMainFunction(async () => {
  tuneRuntime(process.env);
  // Chalk read the terminal's colours while the snapshot was built, with no terminal.
  chalk.level = process.stdout.isTTY ? (process.stdout.getColorDepth() >= 24 ? 3 : 2) : 0;
  try {
    await (instantiateYogaAfterSnapshot as () => Promise<void>)();
    process.exitCode = await runTuiCommand(process.argv.slice(1), process.env);
  } catch (error) {
    process.stderr.write(`shop-inbox: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
});
