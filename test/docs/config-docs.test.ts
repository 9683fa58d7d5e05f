/**
 * The reference of config.json (scripts/docs/config-docs.ts): its table has a row for every key of the
 * schema the config is parsed with, with that key's default and meaning, and its JSON Schema takes every
 * config the app takes and refuses the wrong shapes.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { configJsonSchema, configTable } from '../../scripts/docs/config-docs.js';
import { ConfigSchema, SHOP_NAME_PATTERN } from '../../src/config/config-file.js';
import { DEFAULT_NEW_MARKS_FADE_MS } from '../../src/shell/new-marks.js';
import { notifySettings } from '../../src/shell/notifier.js';
import { markdownTable } from '../support/markdown-table.js';

interface ZodKey {
  path: string;
  field: z.ZodType;
}

/** Every key of a zod object, read from its shape: an entry of a record of objects is `NAME`. */
function zodKeys(schema: z.ZodType, prefix = ''): ZodKey[] {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  if (inner instanceof z.ZodRecord) return zodKeys(inner.valueType as z.ZodType, `${prefix}NAME.`);
  if (!(inner instanceof z.ZodObject)) return [];
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, field]) => [
    { path: `${prefix}${key}`, field },
    ...zodKeys(field, `${prefix}${key}.`),
  ]);
}

interface TableRow {
  key: string;
  type: string;
  default: string;
  meaning: string;
}

/** The table's rows, cut at the pipes that are not escaped. */
function tableRows(table: string): TableRow[] {
  const { titles, rule, rows } = markdownTable(table);
  expect(titles).toEqual(['key', 'type', 'default', 'meaning']);
  expect(rule).toBe('|---|---|---|---|');
  return rows.map((cells) => {
    expect(cells, cells.join(' | ')).toHaveLength(4);
    const [key = '', type = '', fallback = '', meaning = ''] = cells;
    return { key: key.replace(/^`(.*)`$/, '$1'), type, default: fallback, meaning };
  });
}

const KEYS = zodKeys(ConfigSchema);
const ROWS = tableRows(configTable());
const rowOf = (path: string) => ROWS.find((row) => row.key === path);
const metaOf = (path: string) => KEYS.find((key) => key.path === path)?.field.meta();

describe('config.json: the table of keys', () => {
  it('has one row for every key of the schema, nested keys as paths', () => {
    expect(KEYS.map((key) => key.path)).toContain('shops.NAME.base_url');
    expect(KEYS.map((key) => key.path)).toContain('notify.events');
    expect(ROWS.map((row) => row.key).sort()).toEqual(KEYS.map((key) => key.path).sort());
  });

  it("gives every key its meaning and its default from the schema's metadata", () => {
    for (const { path, field } of KEYS) {
      const row = rowOf(path);
      const meta = field.meta();
      expect(meta?.description, path).toMatch(/\S/);
      expect(row?.meaning, path).toBe(meta?.description);
      if (meta?.default === undefined) expect(['—', 'required'], path).toContain(row?.default);
      else expect(JSON.parse(row?.default.replace(/^`(.*)`$/, '$1') ?? ''), path).toEqual(meta.default);
    }
  });

  it('says "required" for a key that must be there, and nothing for one without a default', () => {
    expect(rowOf('shops.NAME.base_url')?.default).toBe('required');
    expect(rowOf('timezone')?.default).toBe('—');
  });

  it('writes enums as their values, lists of them, and records as what maps to what', () => {
    expect(rowOf('theme')?.type).toBe('`"auto"`, `"dark"`, `"light"`');
    expect(rowOf('notify.events')?.type).toBe(
      'list of `"missed_call"`, `"inbound_text"`, `"same_day"`, `"pending_action"`',
    );
    expect(rowOf('keys')?.type).toBe('object: command id → key or list of keys');
    expect(rowOf('shops')?.type).toBe('object: shop name → shop');
    expect(rowOf('mouse')?.type).toBe('boolean');
  });

  it('gives the defaults the app uses when a key is absent', () => {
    for (const wallboard of [false, true]) {
      const settings = notifySettings(undefined, wallboard);
      expect(metaOf('notify.title')?.default).toBe(settings.title);
      expect(metaOf('notify.events')?.default).toEqual(settings.events);
    }
    // These differ between the inbox and the wallboard: the meaning says so, and there is no one default.
    for (const path of ['desktop', 'bell'] as const) {
      expect(notifySettings(undefined, false)[path]).not.toBe(notifySettings(undefined, true)[path]);
      expect(metaOf(`notify.${path}`)?.default).toBeUndefined();
    }
    expect(metaOf('new_marks_fade_minutes')?.default).toBe(DEFAULT_NEW_MARKS_FADE_MS / 60_000);
  });
});

const validate = new Ajv2020({ allErrors: true }).compile(JSON.parse(configJsonSchema()));
const errorsOf = () => JSON.stringify(validate.errors);

describe('config.json: the JSON Schema', () => {
  it('is draft 2020-12 with a title and a description, pretty-printed, the same each time', () => {
    const text = configJsonSchema();
    const document = JSON.parse(text);
    expect(document.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(document.title).toMatch(/config\.json/);
    expect(document.description).toMatch(/\S/);
    expect(text).toBe(`${JSON.stringify(document, null, 2)}\n`);
    expect(configJsonSchema()).toBe(text);
  });

  it.each([
    ['one shop', { base_url: 'https://api.shop.example/v1', read_only: true, timezone: 'America/Denver' }],
    [
      'several shops with a default',
      {
        $schema: 'https://shop-inbox.example/schema/config.schema.json',
        shops: {
          north: {
            base_url: 'https://api.shop.example/v1',
            key_file: '/home/ana/.config/shop-inbox/keys/north',
          },
          south: {
            base_url: 'https://api.other.example/v1',
            key_file: '/home/ana/.config/shop-inbox/keys/south',
            read_only: true,
            timezone: 'America/Chicago',
          },
        },
        default_shop: 'north',
      },
    ],
    [
      'notifications',
      {
        base_url: 'https://api.shop.example/v1',
        view: 'wallboard',
        notify: { title: true, desktop: true, bell: false, events: ['missed_call', 'same_day'] },
        new_marks_fade_minutes: 10,
      },
    ],
    [
      'keys',
      { keys: { compose: 'm', approve: 'A', palette: ['ctrl-k', ':'] }, mouse: false, theme: 'light' },
    ],
  ])('takes a real config: %s', (_name, config) => {
    expect(ConfigSchema.safeParse(config).success).toBe(true);
    expect(validate(config), errorsOf()).toBe(true);
  });

  it.each([
    ['an unknown theme', { theme: 'blue' }],
    ['a view that is a number', { view: 3 }],
    ['an unknown key in notify', { notify: { sound: true } }],
    ['an unknown event', { notify: { events: ['new_review'] } }],
    ['a shop without a base URL', { shops: { north: { key_file: '/k' } } }],
    ["a shop's name with a space", { shops: { 'north shop': { base_url: 'https://api.shop.example/v1' } } }],
    ['a fade of no minutes', { new_marks_fade_minutes: 0 }],
    ['a key that is a number', { keys: { compose: 5 } }],
    ['a $schema that is not a string', { $schema: 5 }],
  ])('refuses a wrong config: %s', (_name, config) => {
    expect(ConfigSchema.safeParse(config).success).toBe(false);
    expect(validate(config)).toBe(false);
  });

  it('takes every config the app takes', () => {
    const absolutePath = fc
      .array(fc.stringMatching(/^[a-z0-9._-]{1,8}$/), { minLength: 1, maxLength: 4 })
      .map((parts) => `/${parts.join('/')}`);
    const timeZone = fc.constantFrom(...Intl.supportedValuesOf('timeZone'));
    const shop = fc.record(
      { base_url: fc.webUrl(), key_file: absolutePath, read_only: fc.boolean(), timezone: timeZone },
      { requiredKeys: ['base_url'] },
    );
    const oneShop = fc.record({ base_url: fc.webUrl(), key_file: absolutePath }, { requiredKeys: [] });
    const severalShops = fc
      .dictionary(fc.stringMatching(SHOP_NAME_PATTERN), shop, { minKeys: 1, maxKeys: 4 })
      .chain((shops) =>
        fc.record(
          { shops: fc.constant(shops), default_shop: fc.constantFrom(...Object.keys(shops)) },
          { requiredKeys: ['shops'] },
        ),
      );
    const common = fc.record(
      {
        $schema: fc.webUrl(),
        read_only: fc.boolean(),
        keys: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.array(fc.string()))),
        mouse: fc.boolean(),
        view: fc.constantFrom('inbox', 'wallboard'),
        theme: fc.constantFrom('auto', 'dark', 'light'),
        notify: fc.record(
          {
            title: fc.boolean(),
            desktop: fc.boolean(),
            bell: fc.boolean(),
            events: fc.array(fc.constantFrom('missed_call', 'inbound_text', 'same_day', 'pending_action')),
          },
          { requiredKeys: [] },
        ),
        new_marks_fade_minutes: fc.oneof(
          fc.integer({ min: 1, max: 7 * 24 * 60 }),
          fc.double({ min: 0, minExcluded: true, max: 7 * 24 * 60, noNaN: true }),
        ),
        timezone: timeZone,
      },
      { requiredKeys: [] },
    );
    // The app keeps keys it does not know (a later version's): the schema must take them too.
    const unknownKeys = fc.dictionary(
      fc
        .string({ minLength: 1 })
        .filter((key) => !Object.hasOwn(ConfigSchema.shape, key) && key !== '__proto__'),
      fc.jsonValue(),
      { maxKeys: 2 },
    );
    const config = fc
      .tuple(fc.oneof(oneShop, severalShops), common, unknownKeys)
      .map(([where, rest, unknown]) => ({ ...unknown, ...where, ...rest }));
    fc.assert(
      fc.property(config, (candidate) => {
        expect(ConfigSchema.safeParse(candidate).success).toBe(true);
        expect(validate(candidate), errorsOf()).toBe(true);
      }),
    );
  });
});
