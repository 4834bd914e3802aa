import { CombinedGraphQLErrors } from '@apollo/client/errors';
import type { GraphQLFormattedError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { CONFLICT_TEXT, editorAlert, gapLabel, leavingCode } from './editorErrors';

const graphQLErrors = (...errors: GraphQLFormattedError[]) => new CombinedGraphQLErrors({ data: null, errors });

describe('editorAlert', () => {
  it('lists the missing parts of a publish in the order of the form', () => {
    const error = graphQLErrors({
      message: 'The article is not ready to publish',
      extensions: { code: 'BAD_USER_INPUT', gaps: ['SummaryAbsent', 'TextAbsent', 'Nonsense', 'TitleAbsent'] },
    });
    expect(editorAlert(error)).toEqual({ kind: 'gaps', gaps: ['TitleAbsent', 'TextAbsent', 'SummaryAbsent'] });
  });

  it("passes the server's conflict message through", () => {
    const message = 'This article was changed by someone else. Reload it to see their changes.';
    expect(editorAlert(graphQLErrors({ message, extensions: { code: 'CONFLICT' } }))).toEqual({ kind: 'conflict', message });
    expect(editorAlert(graphQLErrors({ message: '', extensions: { code: 'CONFLICT' } }))).toEqual({
      kind: 'conflict',
      message: CONFLICT_TEXT,
    });
  });

  it('maps anything else like every other screen', () => {
    expect(editorAlert(graphQLErrors({ message: 'Title too long', extensions: { code: 'BAD_USER_INPUT' } }))).toEqual({
      kind: 'error',
      message: 'BAD_USER_INPUT::Title too long',
    });
    expect(editorAlert(new TypeError('Failed to fetch'))).toEqual({ kind: 'error', message: 'Cannot connect to server' });
  });
});

describe('gapLabel', () => {
  it('names every gap', () => {
    expect(gapLabel('TextAbsent')).toBe('Body text');
    expect(gapLabel('PublisherAbsent')).toBe('Publisher');
    expect(gapLabel('ContributorAbsent')).toBe('Contributors');
    expect(gapLabel('SummaryAbsent')).toBe('Summary');
    expect(gapLabel('CategoriesAbsent')).toBe('Categories');
    expect(gapLabel('CategoriesAbsent', 'Topics')).toBe('Topics');
    expect(gapLabel('TitleAbsent')).toBe('Title');
    expect(gapLabel('ChannelAbsent')).toBe('Channel');
  });
});

describe('leavingCode', () => {
  it('leaves on FORBIDDEN and NOT_FOUND only', () => {
    expect(leavingCode(graphQLErrors({ message: 'no', extensions: { code: 'FORBIDDEN' } }))).toBe('FORBIDDEN');
    expect(leavingCode(graphQLErrors({ message: 'gone', extensions: { code: 'NOT_FOUND' } }))).toBe('NOT_FOUND');
    expect(leavingCode(graphQLErrors({ message: 'boom', extensions: { code: 'INTERNAL' } }))).toBeNull();
    expect(leavingCode(new TypeError('Failed to fetch'))).toBeNull();
    expect(leavingCode(undefined)).toBeNull();
  });
});
