//! The editor's local draft as a hook: the offer made on opening, the timer that stores the content
//! every `intervalMs` when it changed, and what resume, discard, a failure (store now) and a success
//! (remove and stop) do. The rules themselves are in localDraft.ts.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ArticleValues } from './articleValues';
import { draftToOffer, removeDraft, serializeValues, shouldStore, writeDraft, type DraftStorage, type StoredDraft } from './localDraft';

/** localStorage, or nothing when the browser forbids it (some private modes throw on access). */
function browserStorage(): DraftStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const NO_STORAGE: DraftStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };

export interface LocalDraft {
  /** A stored draft that differs from the opened content, until the user resumes or discards it. */
  offer: StoredDraft | null;
  /** Takes the offered draft: returns its values for the form. */
  resume: () => ArticleValues | null;
  /** Deletes the offered draft. */
  discard: () => void;
  /** Stores the content now, if it changed (a refused save keeps the user's content). */
  storeNow: () => void;
  /** Removes the draft and stops the timer (after a successful save, publish or archive). */
  finish: () => void;
}

export function useLocalDraft(key: string, values: ArticleValues, opened: ArticleValues, intervalMs: number): LocalDraft {
  const [storage] = useState<DraftStorage>(() => browserStorage() ?? NO_STORAGE);
  const [offer, setOffer] = useState<StoredDraft | null>(() => draftToOffer(storage, key, opened));
  const latest = useRef(values);
  // What the storage holds for this article (or the opened content: unchanged content is not stored).
  const stored = useRef(serializeValues(opened));
  const finished = useRef(false);

  useEffect(() => {
    latest.current = values;
  });

  const storeNow = useCallback(() => {
    if (finished.current || !shouldStore(latest.current, stored.current)) return;
    if (writeDraft(storage, key, latest.current)) stored.current = serializeValues(latest.current);
  }, [storage, key]);

  // Paused while a stored draft waits for an answer, so the timer never overwrites it.
  useEffect(() => {
    if (offer || intervalMs <= 0) return;
    const timer = setInterval(storeNow, intervalMs);
    return () => clearInterval(timer);
  }, [offer, intervalMs, storeNow]);

  const resume = () => {
    if (!offer) return null;
    stored.current = serializeValues(offer.values);
    setOffer(null);
    return offer.values;
  };

  const discard = () => {
    removeDraft(storage, key);
    setOffer(null);
  };

  const finish = () => {
    finished.current = true;
    removeDraft(storage, key);
  };

  return { offer, resume, discard, storeNow, finish };
}
