import type { MockLink } from '@apollo/client/testing';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuthContextProvider } from '../../lib/auth';
import { fakeAuth } from '../../testing/renderApp';
import { ReadingStatementDocument } from './__generated__/ReadingStatement.generated';
import { ReadingStatement, recentMonths } from './ReadingStatement';
import { renderInRouter } from './testData';

const NOW = new Date(2026, 2, 20);

/** The statement for March 2026: one article read through the reader's AI assistant and on the web, one on the web only. */
const statementMock: MockLink.MockedResponse = {
  request: { query: ReadingStatementDocument, variables: { month: '2026-03' } },
  result: {
    data: {
      myReadingStatement: [
        {
          __typename: 'ReadingStatementLine',
          articleId: 'a1',
          title: 'Copper outlook',
          channelName: 'Metals Weekly',
          firstRead: new Date(2026, 2, 5, 14, 5).toISOString(),
          reads: 3,
          full: true,
          sources: ['agent', 'web'],
        },
        {
          __typename: 'ReadingStatementLine',
          articleId: 'a2',
          title: 'Zinc brief',
          channelName: null,
          firstRead: new Date(2026, 2, 6, 9, 0).toISOString(),
          reads: 1,
          full: false,
          sources: ['feed'],
        },
      ],
    },
  },
};

describe('ReadingStatement', () => {
  it('offers the last twelve months, newest first', () => {
    const months = recentMonths(new Date(2026, 0, 15));
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ value: '2026-01', label: 'January 2026' });
    expect(months[1]).toEqual({ value: '2025-12', label: 'December 2025' });
    expect(months[11]).toEqual({ value: '2025-02', label: 'February 2025' });
  });

  it('says how each article was read: the sources joined, in their labels', async () => {
    // The CSV download reads the signed-in user's token.
    renderInRouter(
      <AuthContextProvider value={fakeAuth()}>
        <ReadingStatement now={NOW} />
      </AuthContextProvider>,
      [statementMock],
    );
    const table = await screen.findByRole('table', { name: 'What you read in March 2026' });
    await within(table).findByText('Copper outlook');
    const rows = within(table)
      .getAllByRole<HTMLTableRowElement>('row')
      .map((r) => [...r.cells].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Article', 'Channel', 'First read', 'Reads', 'Read', 'Source'],
      ['Copper outlook', 'Metals Weekly', '05 Mar 2026 14:05', '3', 'Full article', 'AI assistant, Web'],
      ['Zinc brief', '', '06 Mar 2026 09:00', '1', 'Preview only', 'Feed'],
    ]);
  });
});
