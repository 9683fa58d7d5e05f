/**
 * templates.json: the shipped examples when there is none, a plain-words
 * error (never a crash) for a file that cannot be used, caps on its size,
 * and filling variables with what the API gave (customer data enters as one
 * line of printable text).
 */

import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EXAMPLE_TEMPLATES,
  fillTemplate,
  loadTemplates,
  TEMPLATE_VARIABLES,
  TEMPLATES_MAX,
  TemplatesError,
  templatesPath,
} from '../../src/user-actions/templates.js';

let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-templates-'));
  env = { XDG_CONFIG_HOME: home };
  await mkdir(join(home, 'shop-inbox'), { recursive: true });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const write = (text: string) => writeFile(templatesPath(env), text);

describe('templates.json', () => {
  it('none: the shipped examples, which use only known variables', async () => {
    expect(await loadTemplates(env)).toEqual(EXAMPLE_TEMPLATES);
    for (const template of EXAMPLE_TEMPLATES) {
      for (const [, name] of template.body.matchAll(/\{([a-z_]+)\}/g))
        expect(Object.keys(TEMPLATE_VARIABLES)).toContain(name);
    }
  });

  it('a list of name and body', async () => {
    await write(JSON.stringify([{ name: 'Quote', body: 'Hi {first_name}, your quote is ready.' }]));
    expect(await loadTemplates(env)).toEqual([
      { name: 'Quote', body: 'Hi {first_name}, your quote is ready.' },
    ]);
  });

  it.each([
    ['{ "name": ', /not valid JSON/],
    ['{ "name": "a", "body": "b" }', /is not a list of \{ "name": …, "body": … \}/],
    ['[{ "name": "a" }]', /at 0\.body/],
    ['[{ "name": "", "body": "b" }]', /a template needs a name/],
    [JSON.stringify([{ name: 'long', body: 'x'.repeat(1601) }]), /at 0\.body/],
    [
      JSON.stringify(Array.from({ length: TEMPLATES_MAX + 1 }, () => ({ name: 'a', body: 'b' }))),
      /not a list/,
    ],
  ])('refuses %s in plain words', async (text, message) => {
    await write(text);
    await expect(loadTemplates(env)).rejects.toThrow(TemplatesError);
    await expect(loadTemplates(env)).rejects.toThrow(message);
  });

  it('refuses a file over its size cap without reading it as JSON', async () => {
    await write(`[${' '.repeat(300 * 1024)}]`);
    await expect(loadTemplates(env)).rejects.toThrow(/larger than 256 KiB/);
  });

  it('only printable text and line breaks of a template get in', async () => {
    await write(
      JSON.stringify([{ name: 'Evil\u001B]2;x\u0007\nname', body: 'Hi\u001B[2J\u202E there\r\nbye\t!' }]),
    );
    expect(await loadTemplates(env)).toEqual([{ name: 'Evil]2;x name', body: 'Hi[2J there\nbye !' }]);
  });
});

describe('filling a template', () => {
  it('fills the variables it has values for and leaves the others for the checks to refuse', () => {
    expect(
      fillTemplate('Hi {first_name}, re your {job_type} ({pet}) from {business_name}', {
        first_name: 'Dana',
        business_name: 'Rivera Plumbing',
      }),
    ).toBe('Hi Dana, re your {job_type} ({pet}) from Rivera Plumbing');
  });

  it('a value is customer data: one line, no controls, no braces that would look like a variable', () => {
    expect(fillTemplate('Hi {first_name}!', { first_name: 'Da\u001B[31mna\n{job_type}' })).toBe(
      'Hi Da[31mna job_type!',
    );
  });

  it('the README lists every variable', () => {
    const readme = readFileSync('README.md', 'utf8');
    for (const name of Object.keys(TEMPLATE_VARIABLES)) expect(readme).toContain(`\`{${name}}\``);
  });
});
