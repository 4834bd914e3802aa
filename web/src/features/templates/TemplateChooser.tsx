//! The template chooser (spec 2 §2 "Templates"): 'Choose a template to create a new article', the
//! templates with their channel, publisher and categories and a search box; a template's name
//! opens the article editor started from it (/publisher/articles/add-from-template/{_id}). With
//! no templates at all it says so, and offers Editors to create one.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AdminList, Breadcrumbs, pageRows, sortRows, useListState, type AdminColumn } from '../../components/admin';
import { EmptyState } from '../../components/EmptyState';
import { LinkButton } from '../../components/LinkButton';
import { Page } from '../../components/Page';
import { ACCESS, hasAccess } from '../../lib/access';
import { useConfig } from '../../lib/config';
import { useSession } from '../../lib/session';
import { TemplateChooserDocument, type TemplateChooserQuery } from './__generated__/TemplateChooser.generated';
import { CategoriesCell } from './CategoriesCell';
import { FROM_TEMPLATE_PATH, matchingTemplates, TEMPLATES_PATH, topicsWord } from './templateText';

export const CHOOSER_TITLE = 'Choose a template to create a new article';
const ARTICLES_PATH = '/publisher/articles';

type Template = TemplateChooserQuery['templates'][number];

function sortValue(t: Template, key: string): string | null | undefined {
  switch (key) {
    case 'channel':
      return t.premiumChannel?.name;
    case 'publisher':
      return t.publishedBy?.name;
    default:
      return t.title;
  }
}

export default function TemplateChooser() {
  const { role } = useSession();
  const { features } = useConfig();
  const [state, change] = useListState({ sort: { key: 'title', direction: 'asc' } });
  const { data, loading, error, refetch } = useQuery(TemplateChooserDocument, { fetchPolicy: 'cache-and-network' });
  const templates = data?.templates ?? [];
  const found = matchingTemplates(templates, state.search);
  const breadcrumbs = <Breadcrumbs items={[{ text: 'Articles', to: ARTICLES_PATH }, { text: 'New from template' }]} />;

  if (data && templates.length === 0) {
    return (
      <Page title={CHOOSER_TITLE} breadcrumbs={breadcrumbs}>
        <EmptyState
          icon="duplicate"
          title="There are no templates yet"
          description={
            hasAccess(role, ACCESS.templateEdit)
              ? 'Create a template to start articles from it.'
              : 'An editor can create templates to start articles from.'
          }
          action={
            hasAccess(role, ACCESS.templateEdit) ? (
              <LinkButton to={`${TEMPLATES_PATH}/add`} text="New template" icon="add" intent="primary" />
            ) : undefined
          }
        />
      </Page>
    );
  }

  const columns: AdminColumn<Template>[] = [
    {
      key: 'title',
      title: 'Template',
      sortable: true,
      width: '35%',
      // Following the link is choosing the template.
      render: (t) => <Link to={`${FROM_TEMPLATE_PATH}/${t._id}`}>{t.title}</Link>,
    },
    ...(features.premiumChannels
      ? [{ key: 'channel', title: 'Channel', sortable: true, render: (t: Template) => t.premiumChannel?.name }]
      : []),
    { key: 'publisher', title: 'Publisher', sortable: true, render: (t) => t.publishedBy?.name },
    {
      key: 'categories',
      title: topicsWord(features.premiumChannels),
      width: 150,
      render: (t) => <CategoriesCell categories={t.categories} />,
    },
  ];

  return (
    <Page title={CHOOSER_TITLE} breadcrumbs={breadcrumbs}>
      <AdminList
        label="Templates"
        columns={columns}
        rows={pageRows(sortRows(found, state.sort, sortValue), state)}
        total={found.length}
        rowKey={(t) => t._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={data ? undefined : error}
        onRetry={() => void refetch()}
        search={{ placeholder: 'Search templates...' }}
      />
    </Page>
  );
}

export const TEMPLATE_CHOOSER_QUERY = gql`
  query TemplateChooser {
    templates {
      _id
      title
      publishedBy {
        _id
        name
      }
      premiumChannel {
        _id
        name
      }
      categories {
        _id
        name
      }
    }
  }
`;
