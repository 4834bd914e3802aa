//! What the article editor shows when the server refuses (spec 2 §4, §8): the missing parts of a
//! publish (BAD_USER_INPUT with `extensions.gaps`), the stale-version CONFLICT, or the mapped server
//! message; and which load errors send the user back to the list.
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { cleanMessage, errorCode, formatError } from '../../../lib/errors';

export type PublishGap =
  'TextAbsent' | 'PublisherAbsent' | 'ContributorAbsent' | 'SummaryAbsent' | 'CategoriesAbsent' | 'TitleAbsent' | 'ChannelAbsent';

/** The gaps in the order of the form: title, body, then the sidebar. */
export const GAP_ORDER: readonly PublishGap[] = [
  'TitleAbsent',
  'TextAbsent',
  'ChannelAbsent',
  'PublisherAbsent',
  'ContributorAbsent',
  'SummaryAbsent',
  'CategoriesAbsent',
];

/** Readable names of the gaps; `topics` is the taxonomy's word ('Topics' or 'Categories'). */
export function gapLabel(gap: PublishGap, topics = 'Categories'): string {
  switch (gap) {
    case 'TitleAbsent':
      return 'Title';
    case 'TextAbsent':
      return 'Body text';
    case 'ChannelAbsent':
      return 'Channel';
    case 'PublisherAbsent':
      return 'Publisher';
    case 'ContributorAbsent':
      return 'Contributors';
    case 'SummaryAbsent':
      return 'Summary';
    case 'CategoriesAbsent':
      return topics;
  }
}

export const CONFLICT_TEXT = 'This article was changed by someone else since you opened it.';

export type EditorAlert = { kind: 'gaps'; gaps: PublishGap[] } | { kind: 'conflict'; message: string } | { kind: 'error'; message: string };

const isGap = (value: unknown): value is PublishGap => typeof value === 'string' && (GAP_ORDER as readonly string[]).includes(value);

/** The alert for a failed save, publish or archive. */
export function editorAlert(error: unknown): EditorAlert {
  if (CombinedGraphQLErrors.is(error)) {
    const found = new Set<PublishGap>();
    for (const e of error.errors) {
      const gaps = e.extensions?.gaps;
      if (errorCode(e) === 'BAD_USER_INPUT' && Array.isArray(gaps)) gaps.filter(isGap).forEach((g) => found.add(g));
    }
    if (found.size > 0) return { kind: 'gaps', gaps: GAP_ORDER.filter((g) => found.has(g)) };
    const conflict = error.errors.find((e) => errorCode(e) === 'CONFLICT');
    if (conflict) return { kind: 'conflict', message: cleanMessage(conflict.message) || CONFLICT_TEXT };
  }
  return { kind: 'error', message: formatError(error) };
}

/** FORBIDDEN or NOT_FOUND on opening: the editor goes back to the list. */
export function leavingCode(error: unknown): 'FORBIDDEN' | 'NOT_FOUND' | null {
  if (!CombinedGraphQLErrors.is(error)) return null;
  for (const e of error.errors) {
    const code = errorCode(e);
    if (code === 'FORBIDDEN' || code === 'NOT_FOUND') return code;
  }
  return null;
}
