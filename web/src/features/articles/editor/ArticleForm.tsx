//! The article editor's form (spec 2 "Article editor", §4, §5, §8): the title, the body and the
//! sidebar (actions, Article details, Taxonomies); save, publish and archive with their dialogs, the
//! busy indicator 2 s after a start, the error banner (missing parts of a publish, a stale version,
//! or the server's message), and the local draft with its 'Resume editing?' offer.
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Breadcrumbs, ConfirmDialog, TextAreaField, useAdminSettings, type FieldBinding } from '../../../components/admin';
import { Banner } from '../../../components/Banner';
import { LinkButton } from '../../../components/LinkButton';
import { Button } from '../../../components/Button';
import { Page } from '../../../components/Page';
import { showToast } from '../../../components/Toaster';
import type { Role } from '../../../lib/access';
import { useConfig } from '../../../lib/config';
import { formatDateTime } from '../../../lib/dates';
import { formatError } from '../../../lib/errors';
import type { ArticleEditorFieldsFragment, ArticleEditorTemplateQuery } from './__generated__/ArticleEditor.generated';
import {
  ArticleEditorAddDocument,
  ArticleEditorArchiveDocument,
  ArticleEditorEditDocument,
  ArticleEditorPublishAddDocument,
  ArticleEditorPublishEditDocument,
} from './__generated__/ArticleForm.generated';
import { ArticleDetailsPanel, TaxonomiesPanel } from './ArticleDetailsPanel';
import {
  cleanTitle,
  EMPTY_VALUES,
  parseLocalDateTime,
  toArticleInput,
  validateArticle,
  valuesFromArticle,
  valuesFromTemplate,
  type ArticleErrors,
  type ArticleValues,
} from './articleValues';
import { changeChannel, changeOpenToAll, channelOptions, type ChannelChoice } from './channelRules';
import { ARTICLES_PATH, canPublish, editorButtons, successMessage, type ArticleState, type EditorAction } from './editorActions';
import { editorAlert, gapLabel, type EditorAlert } from './editorErrors';
import { draftKey, type EditorTarget } from './localDraft';
import { PublishDialog } from './PublishDialog';
import { RichTextEditor } from '../../../components/richtext/RichTextEditor';
import { useLocalDraft } from './useLocalDraft';
import './ArticleEditor.css';

/** Spec 2 §4: the client config's interval, 3000 ms when it has none. */
export const DEFAULT_AUTOSAVE_MS = 3000;

export const AUTOSAVE_TEXT = 'Content is auto-saved locally in this browser until the article is saved.';
export const RESUME_TITLE = 'Unpublished content – Resume editing?';

const BUSY_TEXT: Record<EditorAction, string> = { save: 'Saving…', publish: 'Publishing…', archive: 'Archiving…' };

type TemplateRecord = ArticleEditorTemplateQuery['findTemplateById'];

/** A field's binding, as the admin fields take it. */
export type BindField = <K extends keyof ArticleValues>(name: K) => FieldBinding<ArticleValues[K]>;

export interface ArticleFormProps {
  target: EditorTarget;
  /** The article being edited (edit mode). */
  record: ArticleEditorFieldsFragment | null;
  /** The template a new article starts from. */
  template: TemplateRecord | null;
  role: Role | null;
  tableauAccess: boolean;
  /** The channels the user may publish to. */
  channels: readonly ChannelChoice[];
  /** Promotional content the body editor can insert. */
  promotionalContent?: readonly { _id: string; name: string }[];
  /** Loads the article again and reopens the editor on it (after a conflict). */
  onReload?: () => Promise<void>;
}

export function ArticleForm({ target, record, template, role, tableauAccess, channels, promotionalContent, onReload }: ArticleFormProps) {
  const navigate = useNavigate();
  const { constants, features, tableau } = useConfig();
  // The chart button and 'Display in chart section' need tableauAccess and a configured Tableau.
  const charts = tableauAccess && tableau != null;
  const { busyIndicatorDelayMs } = useAdminSettings();

  // What the editor opened with; later answers for the same article (cache updates) change nothing here.
  const [opened] = useState<ArticleValues>(() => {
    if (record) return valuesFromArticle(record, channels);
    if (template) return valuesFromTemplate(template, channels);
    return EMPTY_VALUES;
  });
  const [base] = useState(() => ({
    _id: record?._id ?? null,
    version: record?.version ?? null,
    state: (record?.state ?? null) as ArticleState | null,
    wasPublishedPreviously: record?.wasPublishedPreviously ?? false,
    templateId: target.kind === 'template' ? target.templateId : (record?.templateId ?? null),
  }));

  const [values, setValues] = useState<ArticleValues>(opened);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  // The body editor reads its HTML on mount and whenever the key changes (resume).
  const [body, setBody] = useState({ html: opened.html, key: 0 });
  const [alert, setAlert] = useState<EditorAlert | null>(null);
  const [running, setRunning] = useState<EditorAction | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<'publish' | 'archive' | null>(null);
  const busyTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const draft = useLocalDraft(draftKey(target), values, opened, constants.autosaveIntervalMs || DEFAULT_AUTOSAVE_MS);

  const [addArticle] = useMutation(ArticleEditorAddDocument);
  const [editArticle] = useMutation(ArticleEditorEditDocument);
  const [publishAdd] = useMutation(ArticleEditorPublishAddDocument);
  const [publishEdit] = useMutation(ArticleEditorPublishEditDocument);
  const [archiveArticle] = useMutation(ArticleEditorArchiveDocument);

  const mayPublish = canPublish(role);
  const buttons = editorButtons(base.state, mayPublish);
  const topics = features.premiumChannels ? 'Topics' : 'Categories';

  const errors = validateArticle(values);
  // Only publishers see the date field; a date from elsewhere (an old draft) is never sent by others.
  if (!mayPublish) delete errors.publishDate;
  const shownErrors: ArticleErrors = {};
  for (const [name, message] of Object.entries(errors) as [keyof ArticleErrors, string][]) {
    if (touched.has(name)) shownErrors[name] = message;
  }

  const update = (patch: Partial<ArticleValues>) => setValues((v) => ({ ...v, ...patch }));
  const touch = (name: string) => setTouched((prev) => (prev.has(name) ? prev : new Set(prev).add(name)));

  const field: BindField = (name) => ({
    name,
    value: values[name],
    onChange: (value) => update({ [name]: value } as Partial<ArticleValues>),
    onBlur: () => touch(name),
    error: shownErrors[name as keyof ArticleErrors],
  });

  /** Shows every error; true when the values may go to the server. */
  const check = () => {
    setTouched(new Set(Object.keys(values)));
    return Object.keys(errors).length === 0;
  };

  const articleInput = () => toArticleInput(values, { canSetPublishDate: mayPublish, templateId: base.templateId });
  const existing = () => ({ _id: base._id, version: base.version });

  /** Runs a save, publish or archive: busy after the delay, the banner on failure, the list on success. */
  const run = async (action: EditorAction, call: () => Promise<unknown>) => {
    if (running) return;
    setRunning(action);
    setAlert(null);
    busyTimer.current = setTimeout(() => setBusy(true), busyIndicatorDelayMs);
    try {
      await call();
    } catch (error) {
      clearTimeout(busyTimer.current);
      setBusy(false);
      setRunning(null);
      setAlert(editorAlert(error));
      // Whatever the server said, the user's content stays on screen and in the local draft.
      draft.storeNow();
      return;
    }
    clearTimeout(busyTimer.current);
    draft.finish();
    void showToast({ message: successMessage(action, base.state), intent: 'success' });
    navigate(ARTICLES_PATH);
  };

  const save = () => {
    if (!check()) return;
    const item = articleInput();
    void run('save', () =>
      base._id ? editArticle({ variables: { item: { ...item, ...existing() } } }) : addArticle({ variables: { item } }),
    );
  };

  const askPublish = () => {
    if (check()) setDialog('publish');
  };

  const publish = (sendEmails: boolean) => {
    setDialog(null);
    const item = { ...articleInput(), sendEmails };
    void run('publish', () =>
      base._id ? publishEdit({ variables: { item: { ...item, ...existing() } } }) : publishAdd({ variables: { item } }),
    );
  };

  const archive = () => {
    setDialog(null);
    if (!base._id || base.version === null) return;
    const variables = { id: base._id, version: base.version };
    void run('archive', () => archiveArticle({ variables }));
  };

  const resume = () => {
    const stored = draft.resume();
    if (!stored) return;
    setValues(stored);
    setBody((b) => ({ html: stored.html, key: b.key + 1 }));
  };

  const reload = async () => {
    if (!onReload) return;
    draft.storeNow();
    try {
      await onReload();
    } catch (error) {
      setAlert({ kind: 'error', message: formatError(error) });
    }
  };

  const title = target.kind === 'edit' ? 'Edit article' : 'New article';
  const crumb = target.kind === 'edit' ? record?.title || title : title;
  const publishDate = mayPublish && values.publishDate ? parseLocalDateTime(values.publishDate) : null;

  return (
    <Page title={title} breadcrumbs={<Breadcrumbs items={[{ text: 'Articles', to: ARTICLES_PATH }, { text: crumb }]} />}>
      <div className="insights-article-editor">
        <div className="insights-article-editor-banners">
          <Banner>{AUTOSAVE_TEXT}</Banner>
          {draft.offer && (
            <Banner intent="warning" title={RESUME_TITLE}>
              <p>
                This browser kept changes that were not saved
                {draft.offer.savedAt ? ` (last stored ${formatDateTime(draft.offer.savedAt)})` : ''}.
              </p>
              <div className="insights-article-editor-button-row">
                <Button text="Resume editing" intent="primary" onClick={resume} />
                <Button text="Discard content" onClick={draft.discard} />
              </div>
            </Banner>
          )}
          {alert && <AlertBanner alert={alert} topics={topics} onReload={onReload ? () => void reload() : undefined} />}
        </div>

        <div className="insights-article-editor-layout">
          <div className="insights-article-editor-main">
            <div className="insights-article-editor-title">
              <TextAreaField label="Title" rows={2} {...field('title')} onChange={(text) => update({ title: cleanTitle(text) })} />
            </div>
            <div className="insights-article-editor-body">
              <RichTextEditor
                initialHtml={body.html}
                resetKey={body.key}
                onChange={(html) => update({ html })}
                chartsEnabled={charts}
                promotionalContent={promotionalContent}
                ariaLabel="Article body"
              />
            </div>
          </div>

          <aside className="insights-article-editor-sidebar" aria-label="Article settings">
            <div role="group" aria-label="Article actions" className="insights-article-editor-panel insights-article-editor-actions">
              {buttons.save && <Button text={buttons.save} onClick={save} disabled={!!running} loading={busy && running === 'save'} />}
              {buttons.publish && (
                <Button
                  text={buttons.publish}
                  intent="primary"
                  onClick={askPublish}
                  disabled={!!running}
                  loading={busy && running === 'publish'}
                />
              )}
              {buttons.archive && (
                <Button
                  text="Archive"
                  intent="danger"
                  variant="outlined"
                  onClick={() => setDialog('archive')}
                  disabled={!!running}
                  loading={busy && running === 'archive'}
                />
              )}
              {target.kind === 'edit' && (
                <LinkButton
                  to={`${ARTICLES_PATH}/history/${encodeURIComponent(target.id)}`}
                  text="History"
                  icon="history"
                  variant="minimal"
                />
              )}
              <span role="status" aria-live="polite" className="insights-article-editor-status">
                {busy && running ? BUSY_TEXT[running] : ''}
              </span>
            </div>
            <ArticleDetailsPanel
              values={values}
              field={field}
              channels={channelOptions(channels, values.channel)}
              onChannel={(channel) => setValues((v) => changeChannel(v, channel))}
              onOpenToAll={(openToAll) => setValues((v) => changeOpenToAll(v, openToAll))}
              showPublishDate={mayPublish}
              showChartSection={charts}
              premiumOptions={features.premiumFeatures}
            />
            <TaxonomiesPanel
              categories={values.categories}
              onCategories={(categories) => update({ categories })}
              tags={values.tags}
              onTags={(tags) => update({ tags })}
              topics={topics}
            />
          </aside>
        </div>
      </div>

      {dialog === 'publish' && (
        <PublishDialog
          channelId={values.channel?._id ?? null}
          state={base.state}
          wasPublishedPreviously={base.wasPublishedPreviously}
          publishDate={publishDate}
          onConfirm={publish}
          onCancel={() => setDialog(null)}
        />
      )}
      <ConfirmDialog
        isOpen={dialog === 'archive'}
        title="Archive article"
        confirmText="Archive"
        icon="archive"
        onConfirm={archive}
        onCancel={() => setDialog(null)}
      >
        <p>Archive this article? Readers will no longer see it. Changes made since the last save are not kept.</p>
      </ConfirmDialog>
    </Page>
  );
}

function AlertBanner({ alert, topics, onReload }: { alert: EditorAlert; topics: string; onReload?: () => void }) {
  switch (alert.kind) {
    case 'gaps':
      return (
        <Banner intent="danger" role="alert" title="The article cannot be published yet">
          <p>Please fill in:</p>
          <ul aria-label="Missing for publishing">
            {alert.gaps.map((gap) => (
              <li key={gap}>{gapLabel(gap, topics)}</li>
            ))}
          </ul>
        </Banner>
      );
    case 'conflict':
      return (
        <Banner intent="danger" role="alert">
          <p>{alert.message}</p>
          <p>Your version is still here and in the local draft: copy what you need, or reload the article and resume editing.</p>
          {onReload && (
            <div className="insights-article-editor-button-row">
              <Button text="Reload the article" onClick={onReload} />
            </div>
          )}
        </Banner>
      );
    case 'error':
      return (
        <Banner intent="danger" role="alert">
          {alert.message.split('\n').map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </Banner>
      );
  }
}

export const ARTICLE_FORM_MUTATIONS = gql`
  mutation ArticleEditorAdd($item: ArticleInput!) {
    addArticle(item: $item) {
      _id
      version
      state
    }
  }

  mutation ArticleEditorEdit($item: ArticleInput!) {
    editArticle(item: $item) {
      _id
      version
      state
    }
  }

  mutation ArticleEditorPublishAdd($item: ArticleInput!) {
    publishAdd(item: $item) {
      _id
      version
      state
    }
  }

  mutation ArticleEditorPublishEdit($item: ArticleInput!) {
    publishEdit(item: $item) {
      _id
      version
      state
    }
  }

  mutation ArticleEditorArchive($id: ID!, $version: Int!) {
    archiveArticle(_id: $id, version: $version) {
      _id
      version
      state
    }
  }
`;
