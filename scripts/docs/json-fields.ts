/**
 * The fields of each command's --json document as a table: one row per field path, with its type and
 * meaning, read from the JSON Schema of the command's zod schema (src/contract/cli-output.ts). A field of
 * one of the shop's records says whose it is; a field the inbox adds says what its description says.
 */
import * as z from 'zod';
import { CLI_OUTPUTS, SHOP_RECORD_KEYWORD, type ShopRecordMark } from '../../src/contract/cli-output.js';
import { cell } from './table-cell.js';

type Schema = z.core.JSONSchema.JSONSchema;
type SchemaOrBoolean = z.core.JSONSchema._JSONSchema;

export type JsonCommand = keyof typeof CLI_OUTPUTS;

/** The commands with a --json document, in the order cli-output.ts lists them. */
export const JSON_COMMANDS = Object.keys(CLI_OUTPUTS) as JsonCommand[];

/** The path column's words for the document itself. */
export const DOCUMENT_PATH = '(the document)';

interface FieldRow {
  path: string;
  type: string;
  meaning: string;
}

/** Where a field sits: whose record it belongs to, and in which alternative of a union. */
interface Place {
  /** The shop's record the field is of; undefined: the inbox's own. */
  record: string | undefined;
  /** Said first in the meaning of every field under an alternative of a union. */
  alternative: string;
}

interface Walk {
  root: Schema;
  defs: Record<string, Schema>;
  rows: FieldRow[];
  /** The values being walked: one that holds itself by a reference is listed once. */
  open: Set<Schema>;
}

/** A field's schema with null, references and descriptions taken off: what its value is. */
interface Value {
  schema: Schema;
  nullable: boolean;
  descriptions: string[];
  /** The shop's record that a reference on the way named. */
  record: string | undefined;
}

const asSchema = (schema: SchemaOrBoolean | undefined): Schema =>
  typeof schema === 'object' ? schema : schema === false ? { not: {} } : {};

const isNull = (schema: SchemaOrBoolean) => typeof schema === 'object' && schema.type === 'null';

const branchesOf = (schema: Schema): Schema[] | undefined => schema.anyOf ?? schema.oneOf;

function referenced(ref: string, walk: Walk): { schema: Schema; record: string | undefined } {
  if (ref === '#') return { schema: walk.root, record: undefined };
  const name = ref.replace(/^#\/\$defs\//, '');
  return { schema: walk.defs[name] ?? {}, record: name };
}

function fieldValue(start: SchemaOrBoolean | undefined, walk: Walk): Value {
  const value: Value = { schema: asSchema(start), nullable: false, descriptions: [], record: undefined };
  const seen = new Set<Schema>();
  while (!seen.has(value.schema)) {
    const schema = value.schema;
    seen.add(schema);
    // Inner first: what the value is, then what the field says of it ("null: no reply yet").
    if (schema.description && !value.descriptions.includes(schema.description))
      value.descriptions.unshift(schema.description);
    const branches = branchesOf(schema);
    if (schema.$ref) {
      const target = referenced(schema.$ref, walk);
      value.schema = target.schema;
      value.record = target.record ?? value.record;
    } else if (branches?.some(isNull)) {
      const rest = branches.filter((branch) => !isNull(branch));
      value.nullable = true;
      value.schema = rest.length === 1 ? asSchema(rest[0]) : { anyOf: rest };
    } else if (Array.isArray(schema.type) && schema.type.includes('null')) {
      const rest = schema.type.filter((type) => type !== 'null');
      value.nullable = true;
      value.schema = { ...schema, type: rest.length === 1 ? rest[0] : rest };
    }
  }
  return value;
}

const code = (value: unknown) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

const listed = (words: readonly string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

const unique = (words: readonly string[]) => [...new Set(words)];

const PLURALS: Record<string, string> = {
  object: 'objects',
  string: 'strings',
  integer: 'integers',
  number: 'numbers',
  boolean: 'booleans',
  array: 'arrays',
  anything: 'anything',
};

function pluralOf(words: readonly string[]): string {
  const [only] = words;
  if (words.length !== 1 || only === undefined) return `(${listed(words)})`;
  const [first = '', ...rest] = only.split(' ');
  const plural = PLURALS[first];
  return plural ? [plural, ...rest].join(' ') : `(${only})`;
}

/** The mark of an object built on one of the shop's records (shopRecordWith in cli-output.ts). */
function shopRecordMark(schema: Schema): ShopRecordMark | undefined {
  const mark = schema[SHOP_RECORD_KEYWORD];
  if (typeof mark !== 'object' || mark === null) return undefined;
  const { record, fields } = mark as Partial<ShopRecordMark>;
  return typeof record === 'string' && Array.isArray(fields) ? { record, fields } : undefined;
}

function objectWord(schema: Schema, record: string | undefined): string {
  const of = record ?? shopRecordMark(schema)?.record;
  return of ? `object (${of})` : 'object';
}

function stringWord(schema: Schema): string {
  const least = schema.minLength ?? 0;
  const length = least === 1 ? 'not empty' : least > 1 ? `${least} or more characters` : undefined;
  const said = [schema.format, length].filter(Boolean);
  return said.length > 0 ? `string (${said.join(', ')})` : 'string';
}

function typeWords(value: Value, walk: Walk): string[] {
  const { schema } = value;
  if (schema.const !== undefined) return [code(schema.const)];
  if (schema.enum) return schema.enum.map(code);
  const branches = branchesOf(schema);
  if (branches) {
    const values = branches.map((branch) => fieldValue(branch, walk));
    const objects = values.filter((branch) => branch.schema.type === 'object').length;
    if (objects === values.length) return [`object (${objects} alternatives)`];
    const closed = values.some((branch) => branch.schema.enum || branch.schema.const !== undefined);
    const words = values.flatMap((branch) => typeWords(branch, walk));
    return unique(words.map((word) => (closed && word === 'string' ? 'another string' : word)));
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return [schema.not ? 'nothing' : 'anything'];
  return types.map((type) => {
    if (type === 'object') return objectWord(schema, value.record);
    if (type === 'array')
      return `array of ${pluralOf(typeWords(fieldValue(arrayItems(schema), walk), walk))}`;
    if (type === 'string') return stringWord(schema);
    if (type === 'integer' && schema.minimum === 0) return 'integer (0 or more)';
    return type;
  });
}

/** What an array's items may be: a tuple's are each of its places (and its rest, when it has one). */
function arrayItems(schema: Schema): SchemaOrBoolean | undefined {
  const places = schema.prefixItems ?? (Array.isArray(schema.items) ? schema.items : undefined);
  if (!places) return schema.items as SchemaOrBoolean | undefined;
  const rest = Array.isArray(schema.items) || schema.items === false ? [] : [schema.items ?? {}];
  return { anyOf: [...places, ...rest].map(asSchema) };
}

function typeOf(value: Value, optional: boolean, walk: Walk): string {
  const words = listed([...typeWords(value, walk), ...(value.nullable ? ['null'] : [])]);
  return optional ? `${words} (may be absent)` : words;
}

/** What an object's row adds when the object may hold fields its schema does not name. */
function looseNote(schema: Schema, walk: Walk): string {
  const extra = schema.additionalProperties;
  if (schema.type !== 'object' || extra === false) return '';
  const named = Object.keys(schema.properties ?? {}).length > 0;
  const others = typeof extra === 'object' && Object.keys(extra).length > 0;
  if (others)
    return `holds ${named ? 'the fields below and ' : ''}any other field, each ${listed(typeWords(fieldValue(extra, walk), walk))}`;
  return named
    ? 'holds the fields below and any other field the shop sends'
    : 'holds any field the shop sends';
}

function meaningOf(value: Value, place: Place, walk: Walk): string {
  const own = value.descriptions.join('; ');
  const said = place.record ? `the shop's field (${place.record})${own ? `: ${own}` : ''}` : own;
  const item = value.schema.type === 'array' ? fieldValue(arrayItems(value.schema), walk) : undefined;
  const loose = item
    ? looseNote(item.schema, walk).replace(/^holds/, 'each holds')
    : looseNote(value.schema, walk);
  return place.alternative + ([said, loose].filter(Boolean).join('; ') || '—');
}

function field(path: string, schema: SchemaOrBoolean, optional: boolean, place: Place, walk: Walk): void {
  const value = fieldValue(schema, walk);
  walk.rows.push({ path, type: typeOf(value, optional, walk), meaning: meaningOf(value, place, walk) });
  fieldsOf(path, value, place, walk);
}

/** The rows of every field inside a value: an object's properties, an array's items, a union's alternatives. */
function fieldsOf(path: string, value: Value, place: Place, walk: Walk): void {
  if (walk.open.has(value.schema)) return;
  walk.open.add(value.schema);
  const inside: Place = { ...place, record: value.record ?? place.record };
  const { schema } = value;
  const mark = shopRecordMark(schema);
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const record = mark?.fields.includes(key) ? mark.record : inside.record;
    field(path ? `${path}.${key}` : key, property, !required.has(key), { ...inside, record }, walk);
  }
  if (schema.type === 'array') fieldsOf(`${path}[]`, fieldValue(arrayItems(schema), walk), inside, walk);
  branchesOf(schema)?.forEach((branch, index) => {
    const alternative = fieldValue(branch, walk);
    const label = `alternative ${index + 1}${alternative.descriptions.length > 0 ? ` (${alternative.descriptions.join('; ')})` : ''}: `;
    fieldsOf(path, alternative, { ...inside, alternative: `${inside.alternative}${label}` }, walk);
  });
  walk.open.delete(value.schema);
}

function fieldRows(schema: z.ZodType): FieldRow[] {
  const root = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' });
  const walk: Walk = { root, defs: root.$defs ?? {}, rows: [], open: new Set() };
  const document = fieldValue(root, walk);
  const place: Place = { record: undefined, alternative: '' };
  walk.rows.push({
    path: '',
    type: typeOf(document, false, walk),
    meaning: meaningOf(document, place, walk),
  });
  fieldsOf('', document, place, walk);
  return walk.rows;
}

/** A Markdown table of every field of a schema's JSON document: its path, type and meaning. */
export function fieldsTable(schema: z.ZodType): string {
  const rows = fieldRows(schema).map(
    ({ path, type, meaning }) =>
      `| ${path ? `\`${cell(path)}\`` : DOCUMENT_PATH} | ${cell(type)} | ${cell(meaning)} |`,
  );
  return ['| field | type | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The table of every field of a command's --json document. */
export function jsonFieldsTable(command: JsonCommand): string {
  return fieldsTable(CLI_OUTPUTS[command]);
}
