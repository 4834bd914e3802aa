//! An article's viewers (spec 2 "Article stats"): breadcrumb Articles > title > View stats, the title,
//! a status bar (state, published, last edit, 'N view(s)', 'N user(s)') and a table of viewers with
//! name, email, views and last view, in the server's order (last view, newest first). An article
//! that does not exist or may not be seen sends the user back to the list with a toast.
//! 'Campaign links' (issue 14): staff create a link per campaign (a type such as email or
//! newsletter) to the article page and to the marketing article page; each campaign shows the views
//! and unique readers its links brought.
import { gql } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AdminList, Breadcrumbs, pageRows, TextField, useListState, type AdminColumn } from '../../components/admin';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { ChipGroup } from '../../components/Chips';
import { copyLink } from '../../components/copyLink';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { Page } from '../../components/Page';
import { showToast } from '../../components/Toaster';
import { formatDateTime } from '../../lib/dates';
import { errorCode, fieldErrors, formatError } from '../../lib/errors';
import { ARTICLES_PATH, articleEditPath, articleStateLabel, usersText, viewsText } from './articleText';
import { ArticleStatsScreenDocument, CreateCampaignDocument, type ArticleStatsScreenQuery } from './__generated__/ArticleStats.generated';
import { readSourceLabel } from '../../lib/readSource';
import './articles.css';

type Stats = ArticleStatsScreenQuery['findArticleStats'];
type Viewer = Stats['viewers'][number];
type Campaign = Stats['campaigns'][number];

const columns: AdminColumn<Viewer>[] = [
  { key: 'name', title: 'Name', render: (v) => v.name },
  { key: 'email', title: 'Email', render: (v) => v.email },
  { key: 'source', title: 'Source', width: 120, render: (v) => readSourceLabel(v.source) },
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
      {stats && <CampaignLinks stats={stats} onCreated={() => void refetch()} />}
      <h2 className="insights-article-stats-heading">Viewers</h2>
      <AdminList
        label="Viewers"
        columns={columns}
        rows={pageRows(stats?.viewers ?? [], state)}
        total={stats?.viewers.length ?? 0}
        rowKey={(v) => `${v._id}-${v.source}`}
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

/** Campaign types offered; any other may be typed (letters, digits, '-' and '_'; the server checks). */
export const CAMPAIGN_TYPES = ['email', 'newsletter', 'social', 'event'] as const;
const REQUIRED = 'This field is required';

/** The campaign form and the campaigns of the article, newest first (the server's order). */
function CampaignLinks({ stats, onCreated }: { stats: Stats; onCreated: () => void }) {
  const { article } = stats;
  const [campaignType, setCampaignType] = useState('');
  const [typeError, setTypeError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [create, { loading }] = useMutation(CreateCampaignDocument);
  const published = article.state === 'Published';

  const choose = (value: string) => {
    setCampaignType(value);
    setTypeError(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const type = campaignType.trim();
    if (!type) {
      setTypeError(REQUIRED);
      return;
    }
    setFailure(null);
    try {
      await create({ variables: { articleId: article._id, campaignType: type } });
      setCampaignType('');
      void showToast({ message: `The ${type} campaign link has been created.`, intent: 'success' });
      onCreated();
    } catch (error) {
      const fields = fieldErrors(error);
      if (fields.campaignType) setTypeError(fields.campaignType);
      else setFailure(formatError(error));
    }
  };

  const columns: DataColumn<Campaign>[] = [
    { key: 'type', title: 'Type', render: (c) => c.campaignType },
    { key: 'created', title: 'Created', render: (c) => formatDateTime(c.createdAt) },
    { key: 'views', title: 'Views', render: (c) => c.views },
    { key: 'readers', title: 'Unique readers', render: (c) => c.uniqueReaders },
    {
      key: 'article',
      title: 'Article link',
      render: (c) => <CampaignLink url={c.articleLink} name={`article link of ${c.campaignType}`} />,
    },
    {
      key: 'marketing',
      title: 'Marketing article link',
      render: (c) => <CampaignLink url={c.marketingArticleLink} name={`marketing article link of ${c.campaignType}`} />,
    },
  ];

  return (
    <section aria-labelledby="campaign-links-title" className="insights-campaign-links">
      <h2 id="campaign-links-title" className="insights-article-stats-heading">
        Campaign links
      </h2>
      {published ? (
        <form aria-label="New campaign link" className="insights-campaign-form" onSubmit={(e) => void submit(e)} noValidate>
          <TextField
            label="Campaign type"
            name="campaignType"
            value={campaignType}
            onChange={choose}
            onBlur={() => undefined}
            error={typeError}
            maxLength={50}
            placeholder="email, newsletter, social, event or your own"
          />
          <ChipGroup
            label="Campaign types"
            options={CAMPAIGN_TYPES.map((t) => ({ value: t, label: t }))}
            value={campaignType.trim()}
            onChange={choose}
          />
          <Button type="submit" text="Create campaign link" intent="primary" icon="link" loading={loading} />
        </form>
      ) : (
        <p className="insights-campaign-note">Campaign links can be created once the article is published.</p>
      )}
      {failure && (
        <Banner intent="danger" role="alert">
          {failure}
        </Banner>
      )}
      <DataTable
        label="Campaigns"
        columns={columns}
        rows={stats.campaigns}
        rowKey={(c) => c._id}
        emptyText="No campaign links yet: create one to follow the readers a campaign brings."
      />
    </section>
  );
}

/** A campaign's link: opens in a new tab, with a button that copies it. */
function CampaignLink({ url, name }: { url: string; name: string }) {
  return (
    <span className="insights-campaign-link">
      <a href={url} target="_blank" rel="noopener noreferrer" title={url}>
        {url}
      </a>
      <Button
        icon="duplicate"
        size="small"
        variant="minimal"
        label={`Copy the ${name}`}
        onClick={() => void copyLink(url, 'Copy it from the table instead.')}
      />
    </span>
  );
}

export const CREATE_CAMPAIGN_MUTATION = gql`
  mutation CreateCampaign($articleId: ID!, $campaignType: String!) {
    createCampaign(articleId: $articleId, campaignType: $campaignType) {
      _id
      articleLink
      marketingArticleLink
      campaignType
    }
  }
`;

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
        source
        views
        lastViewed
      }
      campaigns {
        _id
        campaignType
        articleLink
        marketingArticleLink
        createdAt
        views
        uniqueReaders
      }
    }
  }
`;
