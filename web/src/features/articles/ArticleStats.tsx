//! An article's viewers (spec 2 "Article stats"): breadcrumb Articles > title > View stats, the title,
//! a status bar (state, published, last edit, 'N view(s)', 'N user(s)') and a table of viewers with
//! name, email, views and last view, in the server's order (last view, newest first). An article
//! that does not exist or may not be seen sends the user back to the list with a toast.
import { gql } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { useQuery } from '@apollo/client/react';
import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AdminList, Breadcrumbs, pageRows, useListState, type AdminColumn } from '../../components/admin';
import { Page } from '../../components/Page';
import { showToast } from '../../components/Toaster';
import { formatDateTime } from '../../lib/dates';
import { errorCode } from '../../lib/errors';
import { ARTICLES_PATH, articleEditPath, articleStateLabel, usersText, viewsText } from './articleText';
import { ArticleStatsScreenDocument, type ArticleStatsScreenQuery } from './__generated__/ArticleStats.generated';
import './articles.css';

type Stats = ArticleStatsScreenQuery['findArticleStats'];
type Viewer = Stats['viewers'][number];

const columns: AdminColumn<Viewer>[] = [
  { key: 'name', title: 'Name', render: (v) => v.name },
  { key: 'email', title: 'Email', render: (v) => v.email },
  { key: 'views', title: 'Views', numeric: true, width: 100, render: (v) => v.views },
  { key: 'lastViewed', title: 'Last viewed', width: 180, render: (v) => formatDateTime(v.lastViewed) },
];

/** Why the list is the better place: the article is gone, or the viewer may not see it. */
function leaveMessage(error: unknown): string | null {
  if (!CombinedGraphQLErrors.is(error)) return null;
  const codes = error.errors.map(errorCode);
  if (codes.includes('NOT_FOUND')) return 'This article no longer exists.';
  if (codes.includes('FORBIDDEN')) return "You don't have access to the stats of this article.";
  return null;
}

export default function ArticleStats() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  // Always fresh: viewers change with every read, and a viewer's counts belong to this article only.
  const { data, loading, error, refetch } = useQuery(ArticleStatsScreenDocument, { variables: { id }, fetchPolicy: 'network-only' });
  const stats = data?.findArticleStats;
  const [state, change] = useListState();
  const leave = leaveMessage(error);

  const left = useRef(false);
  useEffect(() => {
    if (!leave || left.current) return;
    left.current = true;
    void showToast({ message: leave, intent: 'warning' });
    navigate(ARTICLES_PATH, { replace: true });
  }, [leave, navigate]);

  const article = stats?.article;
  return (
    <Page
      title={article?.title ?? 'Article stats'}
      breadcrumbs={
        <Breadcrumbs
          items={[
            { text: 'Articles', to: ARTICLES_PATH },
            ...(article ? [{ text: article.title, to: article.canEdit ? articleEditPath(article._id) : undefined }] : []),
            { text: 'View stats' },
          ]}
        />
      }
    >
      {stats && <StatusBar stats={stats} />}
      <AdminList
        label="Viewers"
        columns={columns}
        rows={pageRows(stats?.viewers ?? [], state)}
        total={stats?.viewers.length ?? 0}
        rowKey={(v) => v._id}
        state={state}
        onStateChange={change}
        loading={loading || !!leave}
        error={leave ? undefined : error}
        onRetry={() => void refetch()}
      />
    </Page>
  );
}

function StatusBar({ stats }: { stats: Stats }) {
  const { article } = stats;
  return (
    <ul aria-label="Article status" className="insights-article-status">
      <li>
        <span className={`insights-article-state insights-article-state-${article.state.toLowerCase()}`}>
          {articleStateLabel(article.state)}
        </span>
      </li>
      {article.publishDate && <li>Published {formatDateTime(article.publishDate)}</li>}
      <li>Last edit {formatDateTime(article.lastEdited)}</li>
      <li>{viewsText(stats.views)}</li>
      <li>{usersText(stats.users)}</li>
    </ul>
  );
}

export const ARTICLE_STATS_QUERY = gql`
  query ArticleStatsScreen($id: ID!) {
    findArticleStats(id: $id) {
      views
      users
      article {
        _id
        title
        state
        publishDate
        lastEdited
        canEdit
      }
      viewers {
        _id
        name
        email
        views
        lastViewed
      }
    }
  }
`;
