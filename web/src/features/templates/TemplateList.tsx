//! The template list (spec 2 §2 "Templates"): Template name, Publisher, categories (cut at 20
//! characters), Channel (only with premium channels on), '# used', Created and Last Edit, and the
//! 'New template' button. `templates` answers every template at once, so searching, sorting and
//! paging run in the browser. Every staff role sees the list; only Editors add and edit templates
//! (spec 2 §6), so a name links to the form when the server says the viewer may edit it
//! (`canEdit`, which an Administrator also has) and the viewer may open the form.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AdminList, pageRows, sortRows, useListState, type AdminColumn } from '../../components/admin';
import { LinkButton } from '../../components/LinkButton';
import { Page } from '../../components/Page';
import { ACCESS, hasAccess } from '../../lib/access';
import { useConfig } from '../../lib/config';
import { formatDate } from '../../lib/dates';
import { useSession } from '../../lib/session';
import { TemplateListDocument, type TemplateListQuery } from './__generated__/TemplateList.generated';
import { CategoriesCell } from './CategoriesCell';
import { matchingTemplates, TEMPLATES_PATH, topicsWord, usedText } from './templateText';

type Template = TemplateListQuery['templates'][number];

function sortValue(t: Template, key: string): string | number | null | undefined {
  switch (key) {
    case 'publisher':
      return t.publishedBy?.name;
    case 'channel':
      return t.premiumChannel?.name;
    case 'used':
      return t.usedArticlesNumber;
    case 'created':
      return Date.parse(t.created);
    case 'lastEdited':
      return Date.parse(t.lastEdited);
    default:
      return t.title;
  }
}

const day = (value: string) => formatDate(new Date(value));

export default function TemplateList() {
  const { role } = useSession();
  const { features } = useConfig();
  const mayEdit = hasAccess(role, ACCESS.templateEdit);
  const [state, change] = useListState({ sort: { key: 'name', direction: 'asc' } });
  const { data, loading, error, refetch } = useQuery(TemplateListDocument, { fetchPolicy: 'cache-and-network' });
  const found = matchingTemplates(data?.templates ?? [], state.search);

  const columns: AdminColumn<Template>[] = [
    {
      key: 'name',
      title: 'Template name',
      sortable: true,
      width: '28%',
      render: (t) => (mayEdit && t.canEdit ? <Link to={`${TEMPLATES_PATH}/edit/${t._id}`}>{t.title}</Link> : t.title),
    },
    { key: 'publisher', title: 'Publisher', sortable: true, render: (t) => t.publishedBy?.name },
    {
      key: 'categories',
      title: topicsWord(features.premiumChannels),
      width: 150,
      render: (t) => <CategoriesCell categories={t.categories} />,
    },
    ...(features.premiumChannels
      ? [{ key: 'channel', title: 'Channel', sortable: true, render: (t: Template) => t.premiumChannel?.name }]
      : []),
    { key: 'used', title: '# used', sortable: true, width: 110, render: (t) => usedText(t.usedArticlesNumber) },
    { key: 'created', title: 'Created', sortable: true, width: 120, render: (t) => day(t.created) },
    { key: 'lastEdited', title: 'Last Edit', sortable: true, width: 120, render: (t) => day(t.lastEdited) },
  ];

  return (
    <Page title="Templates">
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
        actions={mayEdit ? <LinkButton to={`${TEMPLATES_PATH}/add`} text="New template" icon="add" intent="primary" /> : undefined}
      />
    </Page>
  );
}

export const TEMPLATE_LIST_QUERY = gql`
  query TemplateList {
    templates {
      _id
      title
      canEdit
      usedArticlesNumber
      created
      lastEdited
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
