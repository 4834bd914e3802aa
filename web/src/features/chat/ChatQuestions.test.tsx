import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { ChatQuestionsDocument, type ChatQuestionsQueryVariables } from './__generated__/ChatQuestions.generated';
import { NO_SOURCES_TEXT } from './ChatQuestions';

const PATH = '/publisher/chat-questions';
const ARTICLE_ID = '65d000000000000000000001';
const MARCH_5 = new Date(2026, 2, 5, 14, 5).toISOString();

function question(_id: string, overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'ChatQuestion',
    _id,
    question: 'What is the copper outlook?',
    askedAt: MARCH_5,
    mode: 'Passages',
    outcome: 'Answered',
    error: null,
    reader: { __typename: 'UserSummary', _id: `u-${_id}`, name: 'Rita Reader', email: 'rita@example.com' },
    citations: [{ __typename: 'ChatCitedArticle', articleId: ARTICLE_ID, title: 'Copper demand outlook' }],
    ...overrides,
  };
}

const QUESTIONS = [
  question('q1'),
  question('q2', { question: 'Any news on lithium?', citations: [], mode: 'Llm' }),
  question('q3', { question: 'Nickel?', outcome: 'Failed', error: 'chat completions: timeout', citations: [] }),
];

type Params = NonNullable<ChatQuestionsQueryVariables['params']>;

function questionsMock(calls: Params[]): MockLink.MockedResponse {
  return {
    request: { query: ChatQuestionsDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const params = (variables as ChatQuestionsQueryVariables).params!;
      calls.push(params);
      const rows = params.searchQuery
        ? QUESTIONS.filter((q) => q.question.toLowerCase().includes(params.searchQuery!.toLowerCase()))
        : QUESTIONS;
      return { data: { chatQuestions: { __typename: 'ChatQuestionPage', total: rows.length, questions: rows } } };
    },
  };
}

const table = () => screen.getByRole('table', { name: 'Reader questions' });
const rowOf = (text: string) => within(table()).getByText(text).closest<HTMLTableRowElement>('tr')!;

beforeAll(async () => {
  await import('./ChatQuestions');
});

describe('ChatQuestions', () => {
  it('lists what readers asked, with their sources, and highlights questions nothing answered', async () => {
    const calls: Params[] = [];
    renderApp({ path: PATH, user: testUser('Administrator'), mocks: [questionsMock(calls)] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Reader questions' })).toBeInTheDocument();
    await within(table()).findByText('Any news on lithium?');
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Asked at', 'Question', 'Reader', 'Sources', 'Answered by', 'Outcome']);

    const answered = rowOf('What is the copper outlook?');
    expect(within(answered).getByRole('link', { name: 'Copper demand outlook' })).toHaveAttribute('href', `/browse/article/${ARTICLE_ID}`);
    expect(within(answered).queryByText(NO_SOURCES_TEXT)).not.toBeInTheDocument();
    expect(answered.cells[0]).toHaveTextContent('05 Mar 2026 14:05');
    expect(answered.cells[2]).toHaveTextContent('Rita Readerrita@example.com');
    expect(answered.cells[4]).toHaveTextContent('Passages');

    const uncovered = rowOf('Any news on lithium?');
    expect(within(uncovered).getByText(NO_SOURCES_TEXT)).toBeInTheDocument();
    expect(uncovered.cells[4]).toHaveTextContent('Model');
    // A failed answer is no gap in the research: its error is the outcome's tooltip.
    const failed = rowOf('Nickel?');
    expect(within(failed).queryByText(NO_SOURCES_TEXT)).not.toBeInTheDocument();
    expect(within(failed).getByTitle('chat completions: timeout')).toHaveTextContent('Failed');
  }, 15_000);

  it('searches questions and readers on the server', async () => {
    const calls: Params[] = [];
    renderApp({ path: PATH, user: testUser('Administrator'), mocks: [questionsMock(calls)] });
    await within(await screen.findByRole('table', { name: 'Reader questions' })).findByText('Nickel?');
    expect(calls[calls.length - 1]).toEqual({ page: 1, pageSize: 15, searchQuery: null });
    await userEvent.type(screen.getByPlaceholderText('Search questions or readers...'), 'lithium');
    await waitFor(() => expect(calls[calls.length - 1]).toEqual({ page: 1, pageSize: 15, searchQuery: 'lithium' }));
    await waitFor(() => expect(within(table()).queryByText('Nickel?')).not.toBeInTheDocument());
  }, 15_000);

  it('is for Administrators only', async () => {
    renderApp({ path: PATH, user: testUser('Editor'), mocks: [] });
    expect(await screen.findByText(/Access Denied/i)).toBeInTheDocument();
  });
});
