/**
 * The tables of --json fields (scripts/docs/json-fields.ts): each lists every field path of its
 * command's schema and no other, says what each described field means and whose each field of the
 * shop's records is, and its types are enough to write a document the schema takes back unchanged.
 * The paths and records expected here are read from the zod schemas themselves, not from the JSON
 * Schema the tables are made from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  DOCUMENT_PATH,
  fieldsTable,
  JSON_COMMANDS,
  jsonFieldsTable,
} from '../../scripts/docs/json-fields.js';
import { CLI_OUTPUTS } from '../../src/contract/cli-output.js';
import * as resources from '../../src/contract/resources.js';
import { markdownTable } from '../support/markdown-table.js';

interface Row {
  path: string;
  type: string;
  meaning: string;
}

/** The rows of a table as a reader sees them: `\|` read back as `|`, the document's row as path ''. */
function rowsOf(table: string): Row[] {
  const { titles, rule, rows } = markdownTable(table);
  expect(titles).toEqual(['field', 'type', 'meaning']);
  expect(rule).toBe('|---|---|---|');
  return rows.map((cells) => {
    expect(cells, cells.join(' | ')).toHaveLength(3);
    const [path = '', type = '', meaning = ''] = cells;
    return { path: path === DOCUMENT_PATH ? '' : path.replace(/^`|`$/g, ''), type, meaning };
  });
}

const ROWS = new Map(JSON_COMMANDS.map((command) => [command, rowsOf(jsonFieldsTable(command))]));
const rowsFor = (command: keyof typeof CLI_OUTPUTS) => ROWS.get(command) ?? [];
const rowAt = (command: keyof typeof CLI_OUTPUTS, path: string) =>
  rowsFor(command).find((row) => row.path === path);

/** The shop's records (the resources with an id), with their names. */
const RECORDS = Object.values(resources).flatMap((schema) => {
  const name = schema instanceof z.ZodObject ? z.globalRegistry.get(schema)?.id : undefined;
  return name ? [{ name, shape: (schema as z.ZodObject).shape }] : [];
});

/** The record an object is, or is built on: the largest whose every field it holds as the record defines it. */
function recordOf(object: z.ZodObject) {
  const held = RECORDS.filter((record) =>
    Object.entries(record.shape).every(([key, field]) => object.shape[key] === field),
  );
  return held.sort((a, b) => Object.keys(b.shape).length - Object.keys(a.shape).length)[0];
}

interface ZodField {
  descriptions: string[];
  /** The shop's record the field is of; undefined: the inbox's own. */
  record: string | undefined;
}

function withoutNull(schema: z.ZodType): { inner: z.ZodType; descriptions: string[] } {
  const descriptions: string[] = [];
  let inner = schema;
  for (;;) {
    if (inner.description) descriptions.push(inner.description);
    if (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else return { inner, descriptions };
  }
}

/** Every field path of a schema, read from its zod shapes: objects' keys, arrays' items, unions' options. */
function zodFields(schema: z.ZodType): Map<string, ZodField> {
  const fields = new Map<string, ZodField>();
  const inside = (node: z.ZodType, path: string, record: string | undefined) => {
    if (node instanceof z.ZodObject) {
      const of = recordOf(node);
      for (const [key, child] of Object.entries(node.shape)) {
        const childRecord = of && key in of.shape ? of.name : record;
        field(child as z.ZodType, path ? `${path}.${key}` : key, childRecord);
      }
    } else if (node instanceof z.ZodArray) {
      inside(withoutNull(node.element as z.ZodType).inner, `${path}[]`, record);
    } else if (node instanceof z.ZodUnion) {
      for (const option of node.options) inside(withoutNull(option as z.ZodType).inner, path, record);
    }
  };
  const field = (node: z.ZodType, path: string, record: string | undefined) => {
    const { inner, descriptions } = withoutNull(node);
    fields.set(path, { descriptions: [...(fields.get(path)?.descriptions ?? []), ...descriptions], record });
    inside(inner, path, record);
  };
  field(schema, '', undefined);
  return fields;
}

describe('--json field tables', () => {
  it('list every field path of each schema, and no other', () => {
    for (const command of JSON_COMMANDS) {
      const listed = new Set(rowsFor(command).map((row) => row.path));
      expect([...listed].sort(), command).toEqual([...zodFields(CLI_OUTPUTS[command]).keys()].sort());
    }
  });

  it("say what each described field means, whose each of the shop's fields is, and something of every other", () => {
    for (const command of JSON_COMMANDS)
      for (const [path, field] of zodFields(CLI_OUTPUTS[command])) {
        const meanings = rowsFor(command)
          .filter((row) => row.path === path)
          .map((row) => row.meaning);
        for (const description of field.descriptions)
          expect(
            meanings.some((meaning) => meaning.includes(description)),
            `${command} ${path}: ${description}`,
          ).toBe(true);
        for (const meaning of meanings)
          if (field.record)
            expect(meaning, `${command} ${path}`).toContain(`the shop's field (${field.record})`);
          else {
            expect(meaning, `${command} ${path}`).not.toContain("the shop's field");
            expect(field.descriptions.length, `${command} ${path} has no description`).toBeGreaterThan(0);
          }
      }
  });

  it('write nested paths, nullable, enum and union types, and loose records as a reader needs them', () => {
    expect(rowAt('inbox', 'leads[].waiting.seconds')).toEqual({
      path: 'leads[].waiting.seconds',
      type: 'integer (0 or more)',
      meaning: 'how long they have waited, in seconds, when the command ran',
    });
    expect(rowAt('inbox', 'leads[].caller_phone')?.meaning).toBe(
      "the shop's field (InboxLead): phone number, E.164 where known",
    );
    expect(rowAt('inbox', 'leads[].waiting')?.type).toBe('object or null');
    expect(rowAt('inbox', 'latest_inbound[].sender.name')?.meaning).toBe("the contact's name");
    expect(rowAt('inbox', 'leads')?.meaning).toContain(
      'each holds the fields below and any other field the shop sends',
    );
    expect(rowAt('thread', '')?.meaning).toContain('and any other field the shop sends');
    expect(rowAt('thread', 'consent_latest')?.type).toBe('object (ConsentRecord) or null');
    expect(rowAt('status', 'key_mode.mode')?.type).toBe('`write`, `read` or `unknown`');
    expect(rowAt('status', 'texting.texting_status')?.type).toBe('`active` or another string');
    expect(rowAt('status', 'outbox.waiting')?.meaning).toMatch(/^alternative 1 \(the file was read\): /);
    expect(rowAt('status', 'outbox.problem')?.meaning).toMatch(
      /^alternative 2 \(the file cannot be read\): /,
    );
    expect(rowAt('reviews', 'items[].replied_at')?.meaning).toBe(
      "the shop's field (Review): ISO 8601, UTC; null: no reply yet",
    );
    expect(rowAt('error', 'error.retry_after')?.type).toBe('number (may be absent)');
  });

  it('escape | in every cell and keep each row on one line', () => {
    const table = fieldsTable(z.object({ 'a|b': z.string().describe('one | two\nthree') }));
    expect(table.split('\n')).toHaveLength(4);
    expect(table).toContain('| `a\\|b` | string | one \\| two three |');
    expect(rowsOf(table)[1]).toEqual({ path: 'a|b', type: 'string', meaning: 'one | two three' });
  });

  it('list every command in the order of CLI_OUTPUTS', () => {
    expect(JSON_COMMANDS).toEqual(Object.keys(CLI_OUTPUTS));
  });

  it("list every leaf path of the docs' --json examples", () => {
    const pages = [
      'README.md',
      ...readdirSync('docs').flatMap((name) => (name.endsWith('.md') ? [`docs/${name}`] : [])),
    ];
    const examples = pages.flatMap((page) => [
      ...readFileSync(page, 'utf8').matchAll(/<!-- cli-json: (\w+) -->\n```json\n([\s\S]*?)\n```/g),
    ]);
    expect(examples.map((match) => match[1]).sort()).toEqual([...JSON_COMMANDS].sort());
    for (const [, name, json] of examples) {
      const rows = rowsFor(name as keyof typeof CLI_OUTPUTS);
      for (const leaf of leafPaths(JSON.parse(json as string), '')) {
        const listed = closestListed(leaf, rows);
        const reason = `${name}: ${leaf}`;
        expect(listed, reason).toBeDefined();
        if (listed?.path !== leaf)
          expect(listed?.meaning, reason).toContain('any other field the shop sends');
      }
    }
  });

  it('give types enough to write a document the schema takes back unchanged (property)', () => {
    const documents = JSON_COMMANDS.map((command) =>
      documentFrom(rowsFor(command)).map((document) => ({ command, document })),
    );
    fc.assert(
      fc.property(fc.oneof(...documents), ({ command, document }) => {
        const parsed = CLI_OUTPUTS[command].safeParse(document);
        expect(parsed.error?.message, command).toBeUndefined();
        expect(parsed.data).toEqual(document);
      }),
      { numRuns: 300 },
    );
  });
});

/** The paths of a JSON value's leaves (null, numbers, strings, and empty arrays or objects too). */
function leafPaths(value: unknown, path: string): string[] {
  if (Array.isArray(value) && value.length > 0) return value.flatMap((item) => leafPaths(item, `${path}[]`));
  if (typeof value === 'object' && value !== null && Object.keys(value).length > 0)
    return Object.entries(value).flatMap(([key, child]) => leafPaths(child, path ? `${path}.${key}` : key));
  return [path];
}

/** The row of a path, or of the nearest path above it that the table lists. */
function closestListed(path: string, rows: Row[]): Row | undefined {
  for (let at = path; ; at = at.replace(/(\.[^.[\]]+|\[\])$|^[^.[\]]+$/, '')) {
    const row = rows.find((candidate) => candidate.path === at);
    if (row || at === '') return row;
  }
}

const ALTERNATIVES = /^(?:alternative \d+(?: \((?:[^()]|\([^()]*\))*\))?: )*/;
const alternativeOf = (row: Row) => ALTERNATIVES.exec(row.meaning)?.[0] ?? '';

/** Rows of the fields right inside the value at `path` (an object's), by alternative of a union. */
function childRows(path: string, rows: Row[]): Row[][] {
  const children = rows.filter((row) => {
    const key = path ? row.path.slice(path.length + 1) : row.path;
    return (path ? row.path.startsWith(`${path}.`) : row.path !== '') && /^[^.[\]]+$/.test(key);
  });
  const kinds = [...new Set(children.map(alternativeOf))];
  return kinds.map((kind) => children.filter((row) => alternativeOf(row) === kind));
}

const SINGULAR: Record<string, string> = {
  objects: 'object',
  strings: 'string',
  integers: 'integer',
  numbers: 'number',
  booleans: 'boolean',
  arrays: 'array',
};

/** The type of an array's items, from the words after "array of". */
function itemType(words: string): string {
  if (words.startsWith('(') && words.endsWith(')')) return words.slice(1, -1);
  const [first = '', ...rest] = words.split(' ');
  return [SINGULAR[first] ?? first, ...rest].join(' ');
}

/** The words of a type between its commas and "or"s, those inside parentheses kept whole. */
function alternativesOf(type: string): string[] {
  const words: string[] = [];
  let depth = 0;
  let word = '';
  for (let at = 0; at < type.length; at++) {
    const rest = type.slice(at);
    const separator = depth === 0 ? (/^(, | or |,)/.exec(rest)?.[0] ?? '') : '';
    if (separator) {
      words.push(word);
      word = '';
      at += separator.length - 1;
      continue;
    }
    const char = type[at] as string;
    depth += char === '(' ? 1 : char === ')' ? -1 : 0;
    word += char;
  }
  return [...words, word].map((each) => each.trim()).filter(Boolean);
}

const extraValue = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));

/** Values of a type as the table writes it, for the value at `path` (its fields are the rows below it). */
function arbitraryOf(type: string, path: string, rows: Row[], loose: boolean): fc.Arbitrary<unknown> {
  if (type.startsWith('array of ')) {
    const item = itemType(type.slice('array of '.length));
    return fc.array(arbitraryOf(item, `${path}[]`, rows, loose), { maxLength: 3 });
  }
  const values = [...type.matchAll(/`([^`]*)`/g)].map((match) => match[1] as string);
  const words = alternativesOf(type.replace(/`[^`]*`/g, ''));
  const options: fc.Arbitrary<unknown>[] = values.length > 0 ? [fc.constantFrom(...values)] : [];
  for (const word of words) {
    if (word === 'null') options.push(fc.constant(null));
    else if (word === 'string (date-time)')
      options.push(
        fc
          .date({
            min: new Date('2000-01-01T00:00:00Z'),
            max: new Date('2100-01-01T00:00:00Z'),
            noInvalidDate: true,
          })
          .map((d) => d.toISOString()),
      );
    else if (word === 'string' || word === 'another string') options.push(fc.string());
    else if (word === 'string (not empty)') options.push(fc.string({ minLength: 1 }));
    else if (word === 'integer (0 or more)') options.push(fc.nat());
    else if (word === 'integer') options.push(fc.integer());
    else if (word === 'number') options.push(fc.double({ noNaN: true, noDefaultInfinity: true }));
    else if (word === 'boolean') options.push(fc.boolean());
    else if (word === 'anything') options.push(fc.jsonValue({ maxDepth: 2 }));
    else if (word.startsWith('object')) options.push(objectOf(path, rows, loose));
    else throw new Error(`a type the test cannot write: ${word} (at ${path || DOCUMENT_PATH})`);
  }
  return fc.oneof(...options);
}

/** An object of the fields the rows below `path` list (one alternative's), plus one unlisted where it may hold it. */
function objectOf(path: string, rows: Row[], loose: boolean): fc.Arbitrary<unknown> {
  const kinds = childRows(path, rows).map((children) => {
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const row of children) {
      const key = path ? row.path.slice(path.length + 1) : row.path;
      const optional = row.type.endsWith(' (may be absent)');
      const holdsOthers = row.meaning.includes('any other field the shop sends');
      model[key] = arbitraryOf(row.type.replace(/ \(may be absent\)$/, ''), row.path, rows, holdsOthers);
      if (!optional) required.push(key);
    }
    if (loose) model.x_unlisted = extraValue;
    return fc.record(model, { requiredKeys: required });
  });
  return kinds.length > 0 ? fc.oneof(...kinds) : fc.constant({});
}

function documentFrom(rows: Row[]): fc.Arbitrary<unknown> {
  const document = rows.find((row) => row.path === '');
  if (!document) throw new Error('the table has no row for the document');
  return arbitraryOf(document.type, '', rows, document.meaning.includes('any other field the shop sends'));
}
