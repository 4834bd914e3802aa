//! The article editor screen (spec 2 "Article editor"): a new article, an existing one by {_id}, or a
//! new one from a template {templateId}. It loads the article or template and the user's publishable
//! channels, sends the user back to the list when the server refuses (FORBIDDEN, NOT_FOUND) or the
//! article is not theirs to edit, and hands the rest to `ArticleForm`.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { Banner } from '../../../components/Banner';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { showToast } from '../../../components/Toaster';
import { formatError } from '../../../lib/errors';
import {
  ArticleEditorArticleDocument,
  ArticleEditorContextDocument,
  ArticleEditorTemplateDocument,
} from './__generated__/ArticleEditor.generated';
import { ArticleForm } from './ArticleForm';
import { toChannelChoice } from './channelRules';
import { ARTICLES_PATH } from './editorActions';
import { leavingCode } from './editorErrors';
import type { EditorTarget } from './localDraft';

export const LEAVE_MESSAGES = {
  forbidden: 'You may not edit this article.',
  articleNotFound: 'The article was not found.',
  templateNotFound: 'The template was not found.',
} as const;

function useTarget(): EditorTarget {
  const { id, templateId } = useParams();
  if (id) return { kind: 'edit', id };
  if (templateId) return { kind: 'template', templateId };
  return { kind: 'new' };
}

export default function ArticleEditor() {
  const target = useTarget();
  const articleId = target.kind === 'edit' ? target.id : undefined;
  const templateId = target.kind === 'template' ? target.templateId : undefined;

  const context = useQuery(ArticleEditorContextDocument);
  // Fresh from the server on opening; the previous answer stays on screen through refetches.
  const article = useQuery(ArticleEditorArticleDocument, {
    variables: { id: articleId ?? '' },
    skip: !articleId,
    fetchPolicy: 'network-only',
  });
  const template = useQuery(ArticleEditorTemplateDocument, {
    variables: { id: templateId ?? '' },
    skip: !templateId,
    fetchPolicy: 'network-only',
  });
  // 'Reload the article' (after a conflict) opens the editor again on the newer version.
  const [opening, setOpening] = useState(0);

  const me = (context.data ?? context.previousData)?.me;
  // The previous answer only while it is the same record (not the last article of another route).
  const record = [article.data, article.previousData].map((d) => d?.findArticleById).find((a) => !!a && a._id === articleId) ?? null;
  const templateRecord =
    [template.data, template.previousData].map((d) => d?.findTemplateById).find((t) => !!t && t._id === templateId) ?? null;
  const channels = useMemo(() => (me?.channelsToPublish ?? []).map(toChannelChoice), [me]);

  const title = target.kind === 'edit' ? 'Edit article' : 'New article';
  const loadError = article.error ?? template.error;
  const leaving = leavingCode(loadError);
  if (leaving === 'FORBIDDEN') return <LeaveEditor message={LEAVE_MESSAGES.forbidden} />;
  if (leaving === 'NOT_FOUND') {
    return <LeaveEditor message={target.kind === 'template' ? LEAVE_MESSAGES.templateNotFound : LEAVE_MESSAGES.articleNotFound} />;
  }
  if (record && !record.canEdit) return <LeaveEditor message={LEAVE_MESSAGES.forbidden} />;

  const error = loadError ?? context.error;
  const ready = !!me && (target.kind !== 'edit' || !!record) && (target.kind !== 'template' || !!templateRecord);
  if (!ready) {
    if (!error) return <LoadingBlock />;
    return (
      <Page title={title}>
        <Banner intent="danger" role="alert">
          {formatError(error)}
        </Banner>
      </Page>
    );
  }

  return (
    <ArticleForm
      key={`${target.kind}:${articleId ?? templateId ?? ''}:${opening}`}
      target={target}
      record={record}
      template={templateRecord}
      role={me.role ?? null}
      tableauAccess={me.tableauAccess}
      channels={channels}
      promotionalContent={context.data?.promotionalContentOptions ?? context.previousData?.promotionalContentOptions}
      onReload={
        articleId
          ? async () => {
              await article.refetch();
              setOpening((n) => n + 1);
            }
          : undefined
      }
    />
  );
}

/** Back to the articles list with a message. */
function LeaveEditor({ message }: { message: string }) {
  // Once, also when StrictMode runs the effect twice in development.
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    void showToast({ message, intent: 'danger' });
  }, [message]);
  return <Navigate to={ARTICLES_PATH} replace />;
}

export const ARTICLE_EDITOR_QUERIES = gql`
  fragment ArticleEditorFields on Article {
    _id
    title
    html
    summary
    state
    version
    publishDate
    wasPublishedPreviously
    publishedBy {
      _id
      name
      type
    }
    premiumChannel {
      _id
      name
      type
      state
    }
    contributors {
      _id
      name
      email
    }
    categories {
      _id
      name
    }
    tags {
      _id
      name
    }
    promotionalContentIds
    isPremium
    premiumExpiryOffset
    showWatermark
    displayInChartSection
    isPinned
    isTimeless
    templateId
    canEdit
  }

  query ArticleEditorArticle($id: ID!) {
    findArticleById(id: $id) {
      ...ArticleEditorFields
    }
  }

  query ArticleEditorTemplate($id: ID!) {
    findTemplateById(id: $id) {
      _id
      titleForToday
      html
      contributors {
        _id
        name
        email
      }
      categories {
        _id
        name
      }
      tags {
        _id
        name
      }
      publishedBy {
        _id
        name
        type
      }
      premiumChannel {
        _id
        name
        type
        state
      }
    }
  }

  query ArticleEditorContext {
    me {
      _id
      role
      tableauAccess
      channelsToPublish {
        _id
        name
        type
        ownerType
        ownerId
        owner {
          _id
          name
          type
        }
      }
    }
    promotionalContentOptions {
      _id
      name
    }
  }
`;
