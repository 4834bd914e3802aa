//! Reader questions (Administrators, issue 14): what readers asked the intelligence chat, newest
//! first, with the articles each answer cited. A question answered without any source is
//! highlighted: the research the reader could read had nothing on it, a gap worth filling.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AdminList, useListState, type AdminColumn } from '../../components/admin';
import { Badge } from '../../components/Card';
import { Page } from '../../components/Page';
import { formatDateTime } from '../../lib/dates';
import { ChatQuestionsDocument, type ChatQuestionsQuery } from './__generated__/ChatQuestions.generated';
import './chat.css';

export const CHAT_QUESTIONS_PATH = '/publisher/chat-questions';
export const NO_SOURCES_TEXT = 'No sources found';

type Question = ChatQuestionsQuery['chatQuestions']['questions'][number];

const MODE_TEXT: Record<Question['mode'], string> = { Llm: 'Model', Passages: 'Passages' };
const OUTCOME: Record<Question['outcome'], { text: string; intent: 'none' | 'success' | 'danger' }> = {
  Pending: { text: 'Pending', intent: 'none' },
  Answered: { text: 'Answered', intent: 'success' },
  Failed: { text: 'Failed', intent: 'danger' },
};

/** Answered, yet without a source: what readers want that the research does not cover. */
export function isUncovered(question: Pick<Question, 'outcome' | 'citations'>): boolean {
  return question.outcome === 'Answered' && question.citations.length === 0;
}

export default function ChatQuestions() {
  const [state, change] = useListState();
  const variables = { params: { page: state.page, pageSize: state.pageSize, searchQuery: state.search.trim() || null } };
  const { data, previousData, loading, error, refetch } = useQuery(ChatQuestionsDocument, { variables, fetchPolicy: 'cache-and-network' });
  const shown = data ?? previousData;

  const columns: AdminColumn<Question>[] = [
    { key: 'askedAt', title: 'Asked at', width: 150, render: (q) => formatDateTime(q.askedAt) },
    {
      key: 'question',
      title: 'Question',
      width: '35%',
      render: (q) =>
        isUncovered(q) ? (
          <span className="insights-chat-uncovered">
            <strong>{q.question}</strong> <Badge text={NO_SOURCES_TEXT} intent="warning" icon="warning-sign" />
          </span>
        ) : (
          q.question
        ),
    },
    {
      key: 'reader',
      title: 'Reader',
      render: (q) => (
        <>
          {q.reader.name}
          <br />
          <span className="insights-chat-date">{q.reader.email}</span>
        </>
      ),
    },
    {
      key: 'citations',
      title: 'Sources',
      render: (q) => (
        <ul className="insights-chat-sources">
          {q.citations.map((c) => (
            <li key={c.articleId}>
              <Link to={`/browse/article/${encodeURIComponent(c.articleId)}`}>{c.title}</Link>
            </li>
          ))}
        </ul>
      ),
    },
    { key: 'mode', title: 'Answered by', width: 110, render: (q) => MODE_TEXT[q.mode] },
    {
      key: 'outcome',
      title: 'Outcome',
      width: 110,
      render: (q) => (
        <span title={q.error ?? undefined}>
          <Badge text={OUTCOME[q.outcome].text} intent={OUTCOME[q.outcome].intent} />
        </span>
      ),
    },
  ];

  return (
    <Page title="Reader questions">
      <AdminList
        label="Reader questions"
        columns={columns}
        rows={shown?.chatQuestions.questions ?? []}
        total={shown?.chatQuestions.total ?? 0}
        rowKey={(q) => q._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={shown ? undefined : error}
        onRetry={() => void refetch()}
        search={{ placeholder: 'Search questions or readers...' }}
      />
    </Page>
  );
}

export const CHAT_QUESTIONS_QUERY = gql`
  query ChatQuestions($params: ChatQuestionListParams) {
    chatQuestions(params: $params) {
      total
      questions {
        _id
        question
        askedAt
        mode
        outcome
        error
        reader {
          _id
          name
          email
        }
        citations {
          articleId
          title
        }
      }
    }
  }
`;
