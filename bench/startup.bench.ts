/** Start-up of the bundled CLI: what a user waits for before anything happens. */
import { spawnSync } from 'node:child_process';
import { bench, describe } from 'vitest';

describe('process start-up', () => {
  bench(
    'node -e "" (Node itself, the floor)',
    () => {
      spawnSync(process.execPath, ['-e', '']);
    },
    { iterations: 15, time: 0 },
  );
  bench(
    'node dist/cli.js --version',
    () => {
      spawnSync(process.execPath, ['dist/cli.js', '--version']);
    },
    { iterations: 15, time: 0 },
  );
});
