/**
 * What the template picker lists: every canned reply, ranked by fzf against
 * what is typed (its name first, then its body), each shown with its body as
 * it would be filled in for this recipient.
 */
import { Fzf, type FzfResultItem } from 'fzf';
import type { AppState, Template } from '../../store/app-store.js';

export interface TemplateItem {
  template: Template;
  /** Where the typed letters matched in `text`. */
  positions: ReadonlySet<number>;
  /** What is matched: the name, then the body on one line. */
  text: string;
}

const itemsOf = new WeakMap<readonly Template[], TemplateItem[]>();

function candidates(templates: readonly Template[]): TemplateItem[] {
  let items = itemsOf.get(templates);
  if (!items) {
    items = templates.map((template) => ({
      template,
      positions: new Set<number>(),
      text: `${template.name} · ${template.body.replace(/\s+/g, ' ')}`,
    }));
    itemsOf.set(templates, items);
  }
  return items;
}

export function templateItems(state: Pick<AppState, 'templates' | 'templatePicker'>): TemplateItem[] {
  const all = candidates(state.templates);
  const query = state.templatePicker?.query.text.trim() ?? '';
  if (!query) return all;
  const fzf = new Fzf<TemplateItem[]>(all, {
    selector: (item: TemplateItem) => item.text,
    casing: 'case-insensitive',
  });
  return fzf
    .find(query)
    .map((match: FzfResultItem<TemplateItem>) => ({ ...match.item, positions: match.positions }));
}
