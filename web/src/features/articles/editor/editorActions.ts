//! Which actions the article editor offers, and their words (spec 2 §4, §6): save (always a draft),
//! publish (Administrators and Editors) and archive (existing articles that are not archived yet).
import type { Role } from '../../../lib/access';

/** The articles list: where the editor returns after a success, and when it may not open. */
export const ARTICLES_PATH = '/publisher/articles';

export type ArticleState = 'Pending' | 'ReadyForReview' | 'Published' | 'Archived';
export type EditorAction = 'save' | 'publish' | 'archive';

export interface EditorButtons {
  /** The save button's text (a save always stores a draft); null when the user may not change it. */
  save: string | null;
  /** The publish button's text; null when the user may not publish. */
  publish: string | null;
  archive: boolean;
}

/** Spec 2 §6: publish rights. */
export function canPublish(role: Role | null | undefined): boolean {
  return role === 'Administrator' || role === 'Editor';
}

/**
 * The buttons for an article in `state` (null: a new article). Without publish rights a user
 * changes drafts only (the server refuses the rest), so a published or archived article is read-only.
 */
export function editorButtons(state: ArticleState | null, mayPublish: boolean): EditorButtons {
  if (!mayPublish && (state === 'Published' || state === 'Archived')) {
    return { save: null, publish: null, archive: false };
  }
  const [save, publish] = ((): [string, string] => {
    switch (state) {
      case null:
        return ['Save to draft', 'Publish'];
      case 'Published':
        return ['Convert to draft', 'Update'];
      case 'Archived':
        return ['Update and unarchive', 'Publish'];
      // ReadyForReview exists in the contract but the editor treats it as a draft.
      default:
        return ['Update draft', 'Publish'];
    }
  })();
  return { save, publish: mayPublish ? publish : null, archive: state !== null && state !== 'Archived' };
}

/** The toast after a successful action. */
export function successMessage(action: EditorAction, state: ArticleState | null): string {
  switch (action) {
    case 'save':
      return 'Article saved as a draft';
    case 'publish':
      return state === 'Published' ? 'Article updated' : 'Article published';
    case 'archive':
      return 'Article archived';
  }
}
