/** Every command's --help, from the built CLI, is the verb table's, and --help lists every command. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { NAMED_VERBS, usageLine, verbHelp } from '../../src/cli/verb-table.js';

const run = (...args: string[]) =>
  spawnSync(process.execPath, ['dist/cli.js', ...args], {
    encoding: 'utf8',
    timeout: 10_000,
    env: { PATH: process.env.PATH },
  });

describe('--help', () => {
  it('of each command is made from its entry in the verb table', () => {
    for (const verb of NAMED_VERBS) {
      const result = run(verb.name, '--help');
      expect(result.status, verb.name).toBe(0);
      expect(result.stdout, verb.name).toBe(verbHelp(verb));
      for (const name of Object.keys(verb.options)) expect(result.stdout).toContain(`--${name}`);
    }
  });

  it('of the program lists every command', () => {
    const result = run('--help');
    for (const verb of NAMED_VERBS) expect(result.stdout).toContain(usageLine(verb));
  });
});
