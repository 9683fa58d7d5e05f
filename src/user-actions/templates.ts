/**
 * Canned replies: `templates.json` in the config directory, a list of
 * `{ "name": …, "body": … }`, with {variables} filled from what the API gave
 * for the text's recipient. With no file, the examples below are used. A
 * file that cannot be used says why in plain words; the inbox goes on
 * without templates.
 *
 * A variable whose value the inbox does not have (a job type for a contact
 * with no lead listed) is left as it is, and the pre-send checks refuse a
 * text that still has one, naming it.
 */
import { join } from 'node:path';
import * as z from 'zod';
import { formatBytes, readBoundedFile } from '../config/bounded-file.js';
import {
  holdingDirectoryProblem,
  othersCanChangeProblem,
  type TrustedFileRole,
} from '../config/file-permissions.js';
import { configDir } from '../config/paths.js';
import { TEXT_BODY_MAX } from '../contract/endpoints.js';
import type { AppState, ComposerTarget, Template } from '../store/app-store.js';
import { insertableText } from '../text/text-filter.js';

/**
 * Caps: the file, the number of templates, a name. A body is capped at the longest text that can be sent.
 * The file's cap leaves room for the most templates at their longest (200 × 1,600 characters, ~330 KB
 * in ASCII, more with accents or emoji).
 */
export const TEMPLATES_FILE_MAX_BYTES = 1024 * 1024;
export const TEMPLATES_MAX = 200;
export const TEMPLATE_NAME_MAX = 80;

/** Every variable a template may use, and where its value comes from (docs/guide.md lists them: npm run docs). */
export const TEMPLATE_VARIABLES = {
  first_name: "the customer's first name (the first word of the contact's name)",
  contact_name: "the customer's name, as the contact has it",
  contact_phone: "the customer's phone number",
  business_name: 'the business name (GET /me)',
  owner_first_name: "the shop owner's first name (GET /me)",
  job_type: "the lead's job type (the inbox row of the lead the text is for)",
  texting_number: "the shop's texting number (GET /texting)",
} as const;

export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;

/** Shipped examples: used when there is no templates.json. */
export const EXAMPLE_TEMPLATES: readonly Template[] = [
  {
    name: 'Missed your call',
    body: 'Hi {first_name}, this is {business_name}. Sorry we missed your call! How can we help?',
  },
  {
    name: 'On our way',
    body: 'Hi {first_name}, our tech is on the way for your {job_type} and should be there within the hour.',
  },
  {
    name: 'Ask for a time',
    body: 'Hi {first_name}, when would be a good time for us to come out about your {job_type}? Reply with a day and time that works.',
  },
  {
    name: 'Thank you',
    body: 'Thanks for choosing {business_name}, {first_name}! If anything comes up, text us at {texting_number}.',
  },
];

const TemplateSchema = z.object({
  name: z.string().trim().min(1, 'a template needs a name').max(TEMPLATE_NAME_MAX),
  body: z.string().min(1, 'a template needs a body').max(TEXT_BODY_MAX),
});
const TemplatesSchema = z.array(TemplateSchema).max(TEMPLATES_MAX);

export class TemplatesError extends Error {
  override name = 'TemplatesError';
}

export function templatesPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'templates.json');
}

/** A template as it may be used: its name on one line, its body only printable text and line breaks. */
function cleaned(template: Template): Template {
  return {
    name: insertableText(template.name, { multiline: false }).trim(),
    body: insertableText(template.body, { multiline: true }),
  };
}

/** Parses the text of a templates.json; throws TemplatesError in plain words. */
export function parseTemplates(text: string, where = 'templates.json'): Template[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TemplatesError(
      `templates.json is not valid JSON, so no templates are offered: fix or delete ${where}.`,
    );
  }
  const parsed = TemplatesSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.length ? `at ${issue.path.join('.')}: ` : '';
    throw new TemplatesError(
      `templates.json is not a list of { "name": …, "body": … } (${at}${issue?.message ?? 'unexpected shape'}), so no templates are offered: fix or delete ${where}.`,
    );
  }
  return parsed.data.map(cleaned).filter((template) => template.name && template.body.trim());
}

/**
 * Templates are words staff send to customers under the shop's name: a file others could change is
 * not used (as config.json is not), so that nobody else chooses those words.
 */
const TEMPLATES_ROLE: TrustedFileRole = {
  power: 'chooses the words staff send to customers',
  outcome: 'no templates are offered',
};

/** The user's templates, the examples when there is no file, or a TemplatesError saying why not. */
export async function loadTemplates(env: NodeJS.ProcessEnv): Promise<Template[]> {
  const path = templatesPath(env);
  const bytes = await readBoundedFile(path, {
    maxBytes: TEMPLATES_FILE_MAX_BYTES,
    name: path,
    check: (info) => {
      // Its message already says that no templates are offered, and then how to fix it.
      const problem = othersCanChangeProblem(info, path, TEMPLATES_ROLE);
      if (problem) throw new TemplatesError(problem);
      return undefined;
    },
    tooLarge: `${path} is larger than ${formatBytes(TEMPLATES_FILE_MAX_BYTES)}`,
    fail: (message) => new TemplatesError(`${message}, so no templates are offered.`),
  });
  if (bytes === undefined) return [...EXAMPLE_TEMPLATES];
  const replaceable = await holdingDirectoryProblem(path, TEMPLATES_ROLE);
  if (replaceable) throw new TemplatesError(replaceable);
  return parseTemplates(bytes.toString('utf8'), path);
}

/** The values the API gave for this recipient; a variable with no value is absent. */
export function variablesFor(
  state: Pick<AppState, 'me' | 'texting' | 'inbox'>,
  target: ComposerTarget,
): Partial<Record<TemplateVariable, string>> {
  const values: Partial<Record<TemplateVariable, string>> = {};
  const name = target.name.trim();
  if (name) {
    values.contact_name = name;
    values.first_name = name.split(/\s+/)[0] ?? name;
  }
  if (target.phone) values.contact_phone = target.phone;
  const identity = state.me.data?.identity;
  if (identity?.business_name) values.business_name = identity.business_name;
  if (identity?.first_name) values.owner_first_name = identity.first_name;
  const number = state.texting.data?.texting_number ?? state.me.data?.texting_pulse?.texting_number;
  if (number) values.texting_number = number;
  if (target.leadId) {
    const row = [state.inbox.open.data, state.inbox.callbacks.data]
      .flatMap((inbox) => inbox?.open_leads ?? [])
      .find((lead) => lead.id === target.leadId);
    if (row?.job_type) values.job_type = row.job_type;
  }
  return values;
}

/**
 * The body with every variable that has a value filled in. Values are
 * customer data: they enter the text as one line of printable characters.
 */
export function fillTemplate(body: string, values: Partial<Record<TemplateVariable, string>>): string {
  return body.replace(/\{([a-z][a-z0-9_]*)\}/g, (whole, name: string) => {
    const value = values[name as TemplateVariable];
    return value === undefined ? whole : insertableText(value, { multiline: false }).replace(/[{}]/g, '');
  });
}
