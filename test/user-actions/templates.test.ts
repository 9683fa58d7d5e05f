/**
 * templates.json: the shipped examples when there is none, a plain-words
 * error (never a crash) for a file that cannot be used, caps on its size,
 * and filling variables with what the API gave (customer data enters as one
 * line of printable text).
 */

import { execFileSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEXT_BODY_MAX } from '../../src/contract/endpoints.js';
import {
  EXAMPLE_TEMPLATES,
  fillTemplate,
  loadTemplates,
  TEMPLATE_VARIABLES,
  TEMPLATES_FILE_MAX_BYTES,
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
    await write(`[${' '.repeat(TEMPLATES_FILE_MAX_BYTES)}]`);
    expect(await templatesRefusal()).toBe(
      `${templatesPath(env)} is larger than 1 MiB, so no templates are offered.`,
    );
  });

  it('takes the most templates at their longest: the size cap leaves room for them', async () => {
    const longest = Array.from({ length: TEMPLATES_MAX }, (_, index) => ({
      name: `Template ${index}`,
      body: 'é'.repeat(TEXT_BODY_MAX),
    }));
    await write(JSON.stringify(longest, null, 2));
    expect(await loadTemplates(env)).toHaveLength(TEMPLATES_MAX);
  });

  it('only printable text and line breaks of a template get in', async () => {
    await write(
      JSON.stringify([{ name: 'Evil\u001B]2;x\u0007\nname', body: 'Hi\u001B[2J\u202E there\r\nbye\t!' }]),
    );
    expect(await loadTemplates(env)).toEqual([{ name: 'Evil]2;x name', body: 'Hi[2J there\nbye !' }]);
  });
});

/** The TemplatesError loadTemplates throws for the file as it is now. */
async function templatesRefusal(): Promise<string> {
  const error = await loadTemplates(env).then(
    () => expect.fail('the templates were used'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TemplatesError);
  return (error as TemplatesError).message;
}

describe('templates.json: only a small regular file is read, and nothing waits', () => {
  it('refuses a named pipe at once, without waiting for a writer', { timeout: 5_000 }, async () => {
    execFileSync('mkfifo', ['-m', '600', templatesPath(env)]);
    expect(await templatesRefusal()).toBe(
      `${templatesPath(env)} is not a regular file (it is a named pipe), so no templates are offered.`,
    );
  });

  it('refuses a symlink to /dev/zero without reading from it', { timeout: 5_000 }, async () => {
    await symlink('/dev/zero', templatesPath(env));
    expect(await templatesRefusal()).toMatch(/is not a regular file \(it is a character device\)/);
  });

  it('refuses a directory', async () => {
    await mkdir(templatesPath(env));
    expect(await templatesRefusal()).toMatch(/is not a regular file \(it is a directory\)/);
  });

  it('refuses a 100 MB file by its size', async () => {
    await write(`[]${' '.repeat(100 * 1024 * 1024)}`);
    expect(await templatesRefusal()).toBe(
      `${templatesPath(env)} is larger than 1 MiB, so no templates are offered.`,
    );
  });
});

describe('templates.json: nobody else chooses the words staff send', () => {
  const valid = JSON.stringify([{ name: 'Pay here', body: 'Pay at https://pay.example' }]);

  it('refuses a file others can change, saying chmod go-w', async () => {
    await write(valid);
    await chmod(templatesPath(env), 0o666);
    expect(await templatesRefusal()).toBe(
      `${templatesPath(env)} is writable by its group and others (mode 0666): whoever can change it chooses the words staff send to customers, so no templates are offered. Fix it with: chmod go-w ${templatesPath(env)}`,
    );
  });

  it.skipIf(process.geteuid?.() !== 0)('refuses a file that belongs to another user', async () => {
    await write(valid);
    await chown(templatesPath(env), 65534, 65534);
    expect(await templatesRefusal()).toMatch(/templates\.json belongs to another user \(uid 65534\)/);
  });

  it('refuses a file in a directory others can write to', async () => {
    await write(valid);
    await chmod(join(home, 'shop-inbox'), 0o777);
    expect(await templatesRefusal()).toMatch(
      /^the directory \S+ is writable by its group and others \(mode 0777\): they can replace templates\.json, which chooses the words staff send to customers, so no templates are offered\. Fix it with: chmod go-w /,
    );
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
});
