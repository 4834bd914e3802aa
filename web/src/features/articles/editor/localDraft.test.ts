import { describe, expect, it } from 'vitest';
import { EMPTY_VALUES, type ArticleValues } from './articleValues';
import {
  draftDiffers,
  draftId,
  draftKey,
  draftToOffer,
  readDraft,
  removeDraft,
  serializeValues,
  shouldStore,
  writeDraft,
  type DraftStorage,
} from './localDraft';

function memoryStorage(initial: Record<string, string> = {}): DraftStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = value;
    },
    removeItem: (key) => {
      delete data[key];
    },
  };
}

const failing: DraftStorage = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

const loaded: ArticleValues = { ...EMPTY_VALUES, title: 'Brent outlook', html: '<p>Prices rise.</p>', categories: ['t-1'] };
const edited: ArticleValues = { ...loaded, html: '<p>Prices rise further.</p>' };
const KEY = draftKey({ kind: 'edit', id: 'a-1' });

describe('draft keys', () => {
  it("is 'new', the article id, or 'template:<id>'", () => {
    expect(draftId({ kind: 'new' })).toBe('new');
    expect(draftId({ kind: 'edit', id: '65a1' })).toBe('65a1');
    expect(draftId({ kind: 'template', templateId: '65b2' })).toBe('template:65b2');
    expect(draftKey({ kind: 'template', templateId: '65b2' })).toBe('insights.articleDraft.template:65b2');
  });
});

describe('storing and reading', () => {
  it('reads back what it stored, with the time', () => {
    const storage = memoryStorage();
    expect(writeDraft(storage, KEY, edited, new Date('2026-03-05T10:00:00Z'))).toBe(true);
    expect(readDraft(storage, KEY)).toEqual({ values: edited, savedAt: '2026-03-05T10:00:00.000Z' });
    removeDraft(storage, KEY);
    expect(readDraft(storage, KEY)).toBeNull();
  });

  it('ignores unreadable drafts and fills fields a draft lacks', () => {
    expect(readDraft(memoryStorage({ [KEY]: 'not json' }), KEY)).toBeNull();
    expect(readDraft(memoryStorage({ [KEY]: JSON.stringify({ values: { title: 1 } }) }), KEY)).toBeNull();
    const old = readDraft(memoryStorage({ [KEY]: JSON.stringify({ values: { title: 'T', html: '<p>x</p>' } }) }), KEY);
    expect(old?.values).toEqual({ ...EMPTY_VALUES, title: 'T', html: '<p>x</p>' });
  });

  it('survives a browser that refuses the storage', () => {
    expect(readDraft(failing, KEY)).toBeNull();
    expect(writeDraft(failing, KEY, edited)).toBe(false);
    expect(() => removeDraft(failing, KEY)).not.toThrow();
  });
});

describe('differs and the offer', () => {
  it('differs when any value differs, whatever the key order', () => {
    expect(draftDiffers(edited, loaded)).toBe(true);
    expect(draftDiffers({ ...loaded, isPinned: true }, loaded)).toBe(true);
    const reordered = Object.fromEntries(Object.entries(loaded).reverse()) as unknown as ArticleValues;
    expect(draftDiffers(reordered, loaded)).toBe(false);
  });

  it('offers a stored draft only when it differs from the loaded content', () => {
    const storage = memoryStorage();
    expect(draftToOffer(storage, KEY, loaded)).toBeNull();
    writeDraft(storage, KEY, loaded);
    expect(draftToOffer(storage, KEY, loaded)).toBeNull();
    writeDraft(storage, KEY, edited);
    expect(draftToOffer(storage, KEY, loaded)?.values).toEqual(edited);
  });

  it('stores only content that changed since the last store', () => {
    const last = serializeValues(loaded);
    expect(shouldStore(loaded, last)).toBe(false);
    expect(shouldStore(edited, last)).toBe(true);
    expect(shouldStore(edited, serializeValues(edited))).toBe(false);
  });
});
