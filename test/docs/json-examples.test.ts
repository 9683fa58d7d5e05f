/**
 * Each --json example docs/cli.md shows parses with that command's schema
 * (src/contract/cli-output.ts), and every command with --json has one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_OUTPUTS } from '../../src/contract/cli-output.js';

describe('docs/cli.md: --json examples', () => {
  it('shows a --json example of every command, each valid for its schema', () => {
    const readme = readFileSync('docs/cli.md', 'utf8');
    const examples = [...readme.matchAll(/<!-- cli-json: (\w+) -->\n```json\n([\s\S]*?)\n```/g)];
    const shown = new Set(examples.map((match) => match[1]));
    expect([...shown].sort()).toEqual(Object.keys(CLI_OUTPUTS).sort());
    for (const [, name, json] of examples) {
      const schema = CLI_OUTPUTS[name as keyof typeof CLI_OUTPUTS];
      const parsed = schema.safeParse(JSON.parse(json as string));
      expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
    }
  });
});
