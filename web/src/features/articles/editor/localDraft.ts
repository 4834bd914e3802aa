//! The editor's local draft (spec 2 §4, spec 1 §4): the form's content kept in localStorage under a
//! key per article ('new', the article id, or 'template:<id>'), so a closed tab or a refused save
//! loses nothing. Stored only when the content changed; removed after a successful save, publish or
//! archive; offered back ('Resume editing?') when it differs from what the editor opened with.
import { EMPTY_VALUES, type ArticleValues } from './articleValues';

export type EditorTarget = { kind: 'new' } | { kind: 'edit'; id: string } | { kind: 'template'; templateId: string };

export interface StoredDraft {
  values: ArticleValues;
  /** ISO instant of the last store. */
  savedAt: string;
}

/** The storage calls the draft needs (window.localStorage, or a fake in tests). */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const PREFIX = 'insights.articleDraft.';

/** 'new' for a new article, the article id, or 'template:<id>' for an article started from a template. */
export function draftId(target: EditorTarget): string {
  switch (target.kind) {
    case 'new':
      return 'new';
    case 'edit':
      return target.id;
    case 'template':
      return `template:${target.templateId}`;
  }
}

export function draftKey(target: EditorTarget): string {
  return PREFIX + draftId(target);
}

/** The content as compared and stored: every value, in a fixed order. */
export function serializeValues(values: ArticleValues): string {
  const ordered = Object.fromEntries(Object.keys(EMPTY_VALUES).map((k) => [k, values[k as keyof ArticleValues]]));
  return JSON.stringify(ordered);
}

/** Whether a stored draft holds something else than the content the editor opened with. */
export function draftDiffers(draft: ArticleValues, loaded: ArticleValues): boolean {
  return serializeValues(draft) !== serializeValues(loaded);
}

/** Whether the timer should store the content: it changed since the last store (or since opening). */
export function shouldStore(values: ArticleValues, lastStored: string): boolean {
  return serializeValues(values) !== lastStored;
}

/** A stored draft, or null when there is none or it is unreadable (another version's, hand-edited). */
export function readDraft(storage: DraftStorage, key: string): StoredDraft | null {
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as { values?: Partial<ArticleValues>; savedAt?: unknown };
    const v = parsed.values;
    if (!v || typeof v !== 'object' || typeof v.title !== 'string' || typeof v.html !== 'string') return null;
    // Fields added since the draft was stored take their empty value.
    return { values: { ...EMPTY_VALUES, ...v }, savedAt: typeof parsed.savedAt === 'string' ? parsed.savedAt : '' };
  } catch {
    return null;
  }
}

/** Stores the content; false when the browser refuses (quota, private mode). */
export function writeDraft(storage: DraftStorage, key: string, values: ArticleValues, now: Date = new Date()): boolean {
  try {
    storage.setItem(key, JSON.stringify({ values: JSON.parse(serializeValues(values)), savedAt: now.toISOString() }));
    return true;
  } catch {
    return false;
  }
}

export function removeDraft(storage: DraftStorage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // Nothing to do: the draft stays until the next successful save.
  }
}

/** The draft to offer on opening: a stored one that differs from the loaded content. */
export function draftToOffer(storage: DraftStorage, key: string, loaded: ArticleValues): StoredDraft | null {
  const draft = readDraft(storage, key);
  return draft && draftDiffers(draft.values, loaded) ? draft : null;
}
