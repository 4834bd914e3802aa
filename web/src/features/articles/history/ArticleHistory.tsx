//! An article's revision history (issue 40): every save, publish, archive and restore, who and
//! when; two revisions compared field by field and the body word by word, inline or side by side;
//! and a revision restored as a new draft (an edit based on the article's version, which the
//! server records in the audit trail). For staff who may open the article in the editor.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Breadcrumbs, ConfirmDialog } from '../../../components/admin';
import { Banner } from '../../../components/Banner';
import { Button } from '../../../components/Button';
import { Badge } from '../../../components/Card';
import { RadioControl, SelectControl } from '../../../components/Controls';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { LinkButton } from '../../../components/LinkButton';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { showToast } from '../../../components/Toaster';
import { formatFullDateTime } from '../../../lib/dates';
import { formatError } from '../../../lib/errors';
import { auditOfRecordPath } from '../../../lib/audit';
import { ARTICLES_PATH } from '../editor/editorActions';
import {
  ArticleHistoryDocument,
  ArticleRevisionDocument,
  RestoreArticleRevisionDocument,
  type ArticleHistoryQuery,
  type ArticleRevisionQuery,
} from './__generated__/ArticleHistory.generated';
import { bodyText, hasChanges, listDiff, textDiff, type DiffPart } from './revisionDiff';
import './history.css';

type Summary = ArticleHistoryQuery['articleRevisions'][number];
type Revision = ArticleRevisionQuery['articleRevision'];
type Mode = 'inline' | 'sideBySide';

export function historyPath(articleId: string): string {
  return `${ARTICLES_PATH}/history/${encodeURIComponent(articleId)}`;
}

export const ACTION_LABELS: Record<string, string> = {
  add: 'Added',
  save: 'Saved',
  publish: 'Published',
  archive: 'Archived',
  restore: 'Restored',
  migrated: 'Before history',
};

export function actionText(revision: Pick<Summary, 'action' | 'restoredFrom'>): string {
  const label = ACTION_LABELS[revision.action] ?? revision.action;
  return revision.restoredFrom ? `${label} revision ${revision.restoredFrom}` : label;
}

export default function ArticleHistory() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const history = useQuery(ArticleHistoryDocument, { variables: { id }, fetchPolicy: 'network-only' });
  const revisions = history.data?.articleRevisions ?? [];
  const article = history.data?.findArticleById;
  const [chosen, setChosen] = useState<{ older: string | null; newer: string | null }>({ older: null, newer: null });
  const newerId = chosen.newer ?? revisions[0]?._id ?? null;
  const olderId = chosen.older ?? revisions[1]?._id ?? revisions[0]?._id ?? null;
  const [mode, setMode] = useState<Mode>('inline');
  const [restoring, setRestoring] = useState<Summary | null>(null);
  const [restore, restoreState] = useMutation(RestoreArticleRevisionDocument);

  const title = 'Article history';
  const crumbs = (
    <Breadcrumbs
      items={[
        { text: 'Articles', to: ARTICLES_PATH },
        { text: article?.title || 'Article', to: `${ARTICLES_PATH}/edit/${encodeURIComponent(id)}` },
        { text: 'History' },
      ]}
    />
  );
  if (history.error && !history.data) {
    return (
      <Page title={title} breadcrumbs={crumbs}>
        <Banner intent="danger" role="alert">
          <p>{formatError(history.error)}</p>
          <Button text="Retry" size="small" onClick={() => void history.refetch()} />
        </Banner>
      </Page>
    );
  }
  if (!history.data) return <LoadingBlock />;

  const confirmRestore = async () => {
    if (!restoring || !article) return;
    try {
      await restore({ variables: { articleId: id, revisionId: restoring._id, version: article.version } });
      showToast({ message: `Revision ${restoring.number} restored as a draft.`, intent: 'success' });
      setRestoring(null);
      void navigate(`${ARTICLES_PATH}/edit/${encodeURIComponent(id)}`);
    } catch (error) {
      setRestoring(null);
      showToast({ message: `The revision was not restored: ${formatError(error)}`, intent: 'danger' });
      void history.refetch();
    }
  };

  const columns: DataColumn<Summary>[] = [
    { key: 'number', title: 'Revision', render: (r) => r.number },
    { key: 'createdAt', title: 'When', render: (r) => formatFullDateTime(r.createdAt) },
    { key: 'createdBy', title: 'Who', render: (r) => r.createdBy?.name ?? '' },
    { key: 'action', title: 'What', render: (r) => actionText(r) },
    { key: 'state', title: 'State', render: (r) => r.state },
    { key: 'title', title: 'Title', render: (r) => r.title },
    {
      key: 'restore',
      title: 'Restore',
      render: (r) =>
        r._id === revisions[0]?._id ? (
          <span className="insights-history-current">Current</span>
        ) : (
          <Button text="Restore" icon="history" size="small" label={`Restore revision ${r.number}`} onClick={() => setRestoring(r)} />
        ),
    },
  ];
  const options = revisions.map((r) => ({ value: r._id, label: `${r.number} · ${formatFullDateTime(r.createdAt)} · ${actionText(r)}` }));

  return (
    <Page title={title} breadcrumbs={crumbs}>
      <div className="insights-history">
        <p className="insights-history-facts">
          <strong>{article?.title}</strong>
          {article?.firstPublishedAt && <> · First published {formatFullDateTime(article.firstPublishedAt)}</>}
          {article?.updatedAt && <> · Updated {formatFullDateTime(article.updatedAt)}</>}
          {' · '}
          <LinkButton to={auditOfRecordPath('article', id)} text="Audit trail" icon="search" variant="minimal" size="small" />
        </p>
        <DataTable label="Revisions" columns={columns} rows={revisions} rowKey={(r) => r._id} />

        {revisions.length > 1 && (
          <section aria-labelledby="compare-title" className="insights-history-compare">
            <h2 id="compare-title">Compare revisions</h2>
            <div className="insights-history-choices">
              <SelectControl
                label="Older"
                options={options}
                value={olderId ?? ''}
                onChange={(older) => setChosen((c) => ({ ...c, older }))}
              />
              <SelectControl
                label="Newer"
                options={options}
                value={newerId ?? ''}
                onChange={(newer) => setChosen((c) => ({ ...c, newer }))}
              />
              <RadioControl<Mode>
                label="Show"
                inline
                options={[
                  { value: 'inline', label: 'Inline' },
                  { value: 'sideBySide', label: 'Side by side' },
                ]}
                value={mode}
                onChange={setMode}
              />
            </div>
            {olderId && newerId && <Comparison olderId={olderId} newerId={newerId} mode={mode} />}
          </section>
        )}
      </div>
      <ConfirmDialog
        isOpen={!!restoring}
        title={`Restore revision ${restoring?.number ?? ''}?`}
        confirmText="Restore"
        icon="history"
        intent="primary"
        loading={restoreState.loading}
        onConfirm={() => void confirmRestore()}
        onCancel={() => setRestoring(null)}
      >
        <p>
          The article gets this revision’s title, summary, body, channel, topics, tags and contributors as a new draft (Pending): it is
          published again only when someone publishes it. Its history keeps every revision.
        </p>
      </ConfirmDialog>
    </Page>
  );
}

/** Two revisions compared: the fields that changed, the body word by word. */
function Comparison({ olderId, newerId, mode }: { olderId: string; newerId: string; mode: Mode }) {
  const older = useQuery(ArticleRevisionDocument, { variables: { id: olderId } });
  const newer = useQuery(ArticleRevisionDocument, { variables: { id: newerId } });
  const error = older.error ?? newer.error;
  if (error) {
    return (
      <Banner intent="danger" role="alert">
        <p>{formatError(error)}</p>
      </Banner>
    );
  }
  const a = older.data?.articleRevision;
  const b = newer.data?.articleRevision;
  if (!a || !b || a._id !== olderId || b._id !== newerId) return <LoadingBlock />;
  const fields = compare(a, b);
  const changed = fields.filter((f) => hasChanges(f.parts));
  const same = fields.filter((f) => !hasChanges(f.parts)).map((f) => f.name);
  return (
    <div className="insights-history-diff" aria-live="polite">
      <p>
        Revision {a.number} ({formatFullDateTime(a.createdAt)}, {a.createdBy?.name ?? 'unknown'}) compared with revision {b.number} (
        {formatFullDateTime(b.createdAt)}, {b.createdBy?.name ?? 'unknown'}).
      </p>
      {changed.length === 0 && <p>Nothing readers see differs between these revisions.</p>}
      {changed.map((field) => (
        <div key={field.name} className="insights-history-field">
          <h3>
            {field.name} <Badge text="Changed" intent="primary" />
          </h3>
          <Diff parts={field.parts} mode={mode} before={`Revision ${a.number}`} after={`Revision ${b.number}`} />
        </div>
      ))}
      {same.length > 0 && <p className="insights-history-same">Unchanged: {same.join(', ')}.</p>}
    </div>
  );
}

interface FieldDiff {
  name: string;
  parts: DiffPart[];
}

const names = (items: readonly { _id: string; name?: string | null }[]) => items.map((i) => i.name ?? `${i._id} (deleted)`);

type RevisionDisclosure = NonNullable<Revision>['disclosures'][number];

/** Whose disclosure: "Channel Metals Pro", "Desk Metals desk", or its id when since deleted. */
function disclosureLabel(d: RevisionDisclosure): string {
  return `${d.scopeType === 'channel' ? 'Channel' : 'Desk'} ${d.scopeName ?? `${d.scopeId} (deleted)`}`;
}

/** The channel's first, then the desk's, whatever order the server lists them in. */
function sortedDisclosures(r: NonNullable<Revision>): RevisionDisclosure[] {
  const rank = (d: RevisionDisclosure) => (d.scopeType === 'channel' ? 0 : 1);
  return [...r.disclosures].sort((x, y) => rank(x) - rank(y) || disclosureLabel(x).localeCompare(disclosureLabel(y)));
}

/** The disclosures a revision was saved under, at their versions: "Channel Metals Pro: version 3; Desk Metals desk: version 2". */
export function disclosureVersions(r: NonNullable<Revision>): string {
  const all = sortedDisclosures(r);
  if (all.length === 0) return 'None';
  return all.map((d) => `${disclosureLabel(d)}: version ${d.version}${d.html ? '' : ' (withdrawn)'}`).join('; ');
}

/** Their texts, read as text like the body. */
export function disclosureTexts(r: NonNullable<Revision>): string {
  const all = sortedDisclosures(r);
  if (all.length === 0) return 'None';
  return all.map((d) => `${disclosureLabel(d)} (version ${d.version}):\n${bodyText(d.html) || '(withdrawn)'}`).join('\n\n');
}

/** The fields readers see, compared (the disclosures at their versions, then their texts after the body). */
export function compare(a: NonNullable<Revision>, b: NonNullable<Revision>): FieldDiff[] {
  const premium = (r: NonNullable<Revision>) =>
    r.isPremium ? `Premium${r.premiumExpiryOffset ? `, free after ${r.premiumExpiryOffset}` : ''}` : 'Free';
  return [
    { name: 'Title', parts: textDiff(a.title, b.title) },
    { name: 'Summary', parts: textDiff(a.summary ?? '', b.summary ?? '') },
    { name: 'Channel', parts: textDiff(a.premiumChannelName ?? 'None', b.premiumChannelName ?? 'None') },
    { name: 'Access', parts: textDiff(premium(a), premium(b)) },
    { name: 'Disclosures', parts: textDiff(disclosureVersions(a), disclosureVersions(b)) },
    { name: 'Topics', parts: listDiff(names(a.categories), names(b.categories)) },
    { name: 'Tags', parts: listDiff(names(a.tags), names(b.tags)) },
    { name: 'Contributors', parts: listDiff(names(a.contributors), names(b.contributors)) },
    { name: 'Body', parts: textDiff(bodyText(a.html), bodyText(b.html)) },
    { name: 'Disclosure texts', parts: textDiff(disclosureTexts(a), disclosureTexts(b)) },
  ];
}

/** The changed parts: inline (removed struck through, added underlined) or in two columns. */
export function Diff({ parts, mode, before, after }: { parts: readonly DiffPart[]; mode: Mode; before: string; after: string }) {
  const run = (part: DiffPart, i: number) => {
    if (part.change === 'removed') {
      return (
        <del key={i}>
          <span className="insights-visually-hidden">[removed: </span>
          {part.text}
          <span className="insights-visually-hidden">]</span>
        </del>
      );
    }
    if (part.change === 'added') {
      return (
        <ins key={i}>
          <span className="insights-visually-hidden">[added: </span>
          {part.text}
          <span className="insights-visually-hidden">]</span>
        </ins>
      );
    }
    return <span key={i}>{part.text}</span>;
  };
  if (mode === 'inline') return <div className="insights-history-text">{parts.map(run)}</div>;
  return (
    <div className="insights-history-columns">
      <div>
        <h4>{before}</h4>
        <div className="insights-history-text">{parts.map((p, i) => (p.change === 'added' ? null : run(p, i)))}</div>
      </div>
      <div>
        <h4>{after}</h4>
        <div className="insights-history-text">{parts.map((p, i) => (p.change === 'removed' ? null : run(p, i)))}</div>
      </div>
    </div>
  );
}

export const ARTICLE_HISTORY_QUERY = gql`
  query ArticleHistory($id: ID!) {
    findArticleById(id: $id) {
      _id
      title
      version
      state
      firstPublishedAt
      updatedAt
    }
    articleRevisions(articleId: $id) {
      _id
      number
      createdAt
      createdBy {
        _id
        name
      }
      action
      state
      title
      restoredFrom
    }
  }
`;

export const ARTICLE_REVISION_QUERY = gql`
  query ArticleRevision($id: ID!) {
    articleRevision(id: $id) {
      _id
      number
      createdAt
      createdBy {
        _id
        name
      }
      title
      summary
      html
      premiumChannelName
      isPremium
      premiumExpiryOffset
      categories {
        _id
        name
      }
      tags {
        _id
        name
      }
      contributors {
        _id
        name
      }
      disclosures {
        scopeType
        scopeId
        scopeName
        version
        html
      }
    }
  }
`;

export const RESTORE_ARTICLE_REVISION = gql`
  mutation RestoreArticleRevision($articleId: ID!, $revisionId: ID!, $version: Int!) {
    restoreArticleRevision(articleId: $articleId, revisionId: $revisionId, version: $version) {
      _id
      title
      state
      version
    }
  }
`;
