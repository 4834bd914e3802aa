//! Paths and wording shared by the template screens (spec 2 §2 "Templates").

export const TEMPLATES_PATH = '/publisher/templates';
/** The chooser; a chosen template opens the article editor at `${FROM_TEMPLATE_PATH}/{_id}`. */
export const FROM_TEMPLATE_PATH = '/publisher/articles/add-from-template';

/** The categories cell shows this many characters, the rest in its tooltip. */
export const CATEGORIES_CELL_CHARS = 20;

/** 'no articles', '1 article', 'N articles': the '# used' column. */
export function usedText(count: number): string {
  if (count === 0) return 'no articles';
  return count === 1 ? '1 article' : `${count} articles`;
}

/** The text cut at `max` characters with an ellipsis; shorter text stays as it is. */
export function truncateText(text: string, max: number = CATEGORIES_CELL_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** Names joined for a cell: 'Energy, Oil'. */
export function namesText(items: readonly { name: string }[]): string {
  return items.map((i) => i.name).join(', ');
}

/** 'Topics' or 'Categories': 'topic' replaces 'category' when premium channels are on (spec 1 §1). */
export function topicsWord(premiumChannels: boolean): string {
  return premiumChannels ? 'Topics' : 'Categories';
}

interface SearchableTemplate {
  title: string;
  publishedBy?: { name: string } | null;
  premiumChannel?: { name: string } | null;
  categories: readonly { name: string }[];
}

/** Templates whose name, publisher, channel or a category holds the search text, ignoring case. */
export function matchingTemplates<T extends SearchableTemplate>(templates: readonly T[], search: string): T[] {
  const text = search.trim().toLowerCase();
  if (!text) return [...templates];
  return templates.filter((t) =>
    [t.title, t.publishedBy?.name, t.premiumChannel?.name, namesText(t.categories)].some((v) => (v ?? '').toLowerCase().includes(text)),
  );
}
