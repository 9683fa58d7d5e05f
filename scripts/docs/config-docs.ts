/**
 * The reference of config.json, from the zod schema it is parsed with: a table of every key for the docs,
 * and the JSON Schema that editors use to check and complete the file. Both are read from the JSON Schema
 * zod gives, so a key, type, default or meaning is written in one place, src/config/config-file.ts.
 */
import * as z from 'zod';
import { ConfigSchema } from '../../src/config/config-file.js';
import { cell } from './table-cell.js';

type JsonSchema = z.core.JSONSchema.JSONSchema;

/** How an entry of a record of objects is written in a key's path: `shops.NAME.base_url`. */
const ENTRY_PLACEHOLDER = 'NAME';

const code = (text: string) => `\`${text}\``;

function configSchemaDocument(): JsonSchema {
  return z.toJSONSchema(ConfigSchema, { target: 'draft-2020-12', io: 'input' });
}

/** The JSON Schema of config.json, pretty-printed, with its title and description first. */
export function configJsonSchema(): string {
  const { $schema, title, description, ...rest } = configSchemaDocument();
  return `${JSON.stringify({ $schema, title, description, ...rest }, null, 2)}\n`;
}

/** A value as it is written in config.json: `"auto"`, `30`, `["missed_call", "same_day"]`. */
function jsonValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonValue).join(', ')}]`;
  return JSON.stringify(value);
}

const asSchema = (schema: z.core.JSONSchema._JSONSchema | undefined): JsonSchema | undefined =>
  typeof schema === 'object' ? schema : undefined;

/** What a record's keys or values are called: the schema's title, else its type. */
function nameOf(schema: JsonSchema | undefined): string {
  if (schema === undefined) return 'anything';
  return schema.title ?? typeOf(schema);
}

/** A record: an object whose keys are names (its propertyNames), not a fixed list. */
const isRecord = (schema: JsonSchema): boolean =>
  schema.type === 'object' &&
  schema.properties === undefined &&
  asSchema(schema.additionalProperties) !== undefined;

/** The type column: `"auto"`, `"dark"`, `list of string`, `object: command id → key or list of keys`. */
function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => code(JSON.stringify(value))).join(', ');
  if (schema.const !== undefined) return code(JSON.stringify(schema.const));
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.type === 'array') {
    const items = asSchema(Array.isArray(schema.items) ? undefined : schema.items);
    return `list of ${nameOf(items)}`;
  }
  if (isRecord(schema))
    return `object: ${nameOf(asSchema(schema.propertyNames))} → ${nameOf(asSchema(schema.additionalProperties))}`;
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  return schema.type ?? 'anything';
}

interface KeyRow {
  path: string;
  schema: JsonSchema;
  required: boolean;
}

/** Every key under `schema`, depth first: an object's own keys, and the keys of each entry of a record. */
function keyRows(schema: JsonSchema, prefix: string): KeyRow[] {
  const entry = isRecord(schema) ? asSchema(schema.additionalProperties) : undefined;
  if (entry?.properties) return keyRows(entry, `${prefix}${ENTRY_PLACEHOLDER}.`);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([key, property]) => {
    const child = asSchema(property);
    if (child === undefined) return [];
    const path = `${prefix}${key}`;
    return [{ path, schema: child, required: required.has(key) }, ...keyRows(child, `${path}.`)];
  });
}

function defaultOf(row: KeyRow): string {
  if (row.schema.default !== undefined) return code(jsonValue(row.schema.default));
  return row.required ? 'required' : '—';
}

/** Every key of config.json, one row each, with its type, its default when absent and its meaning. */
export function configTable(): string {
  const rows = keyRows(configSchemaDocument(), '').map(
    (row) =>
      `| ${cell(code(row.path))} | ${cell(typeOf(row.schema))} | ${cell(defaultOf(row))} | ${cell(row.schema.description ?? '')} |`,
  );
  return ['| key | type | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}
