import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { tagRecord } from '../../testing/taxonomy';
import { TagListDocument, type TagListQueryVariables } from './__generated__/TagList.generated';

type Params = NonNullable<TagListQueryVariables['params']>;

const TAGS = [
  tagRecord({ _id: '65b000000000000000000001', name: 'Oil', description: 'Crude and refined', articleCount: 4, views: 30 }),
  tagRecord({ _id: '65b000000000000000000002', name: 'Gas', description: 'Natural gas', articleCount: 0, views: 2 }),
  tagRecord({ _id: '65b000000000000000000003', name: 'Copper', description: 'Red metal', articleCount: 9, views: 11 }),
];

/** A fake `tags(params)`: filters, searches, sorts and pages like the server, and records each call. */
function tagsMock(calls: Params[]): MockLink.MockedResponse {
  return {
    request: { query: TagListDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const params = variables.params as Params;
      calls.push(params);
      const q = params.searchQuery?.toLowerCase();
      const field = ({ Name: 'name', Description: 'description', ArticleCount: 'articleCount', Views: 'views' } as const)[
        params.sortField ?? 'Name'
      ];
      const sign = params.sortDirection === 'Desc' ? -1 : 1;
      const rows = TAGS.filter((t) => params.filter !== 'Empty' || t.articleCount === 0)
        .filter((t) => !q || `${t.name} ${t.description}`.toLowerCase().includes(q))
        .sort(
          (a, b) =>
            sign *
            (typeof a[field] === 'number' ? (a[field] as number) - (b[field] as number) : String(a[field]).localeCompare(String(b[field]))),
        );
      const size = params.pageSize ?? 15;
      const page = params.page ?? 1;
      return { data: { tags: { __typename: 'TagPage', total: rows.length, items: rows.slice((page - 1) * size, page * size) } } };
    },
  };
}

const names = () =>
  within(screen.getByRole('table', { name: 'Tags' }))
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => r.cells[0].textContent);

// The route loads these lazily; loading them first keeps the first test within findBy's wait.
beforeAll(async () => {
  await import('./TagList');
});

describe('TagList', () => {
  it('lists the tags with their columns, the range line and the add button', async () => {
    const calls: Params[] = [];
    renderApp({ path: '/publisher/tags', user: testUser('Contributor'), mocks: [tagsMock(calls)] });
    expect(await screen.findByRole('link', { name: 'Copper' })).toHaveAttribute('href', '/publisher/tags/edit/65b000000000000000000003');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Description', 'Articles', 'Views']);
    expect(names()).toEqual(['Copper', 'Gas', 'Oil']);
    expect(screen.getByText('Showing 1-3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add tag' })).toHaveAttribute('href', '/publisher/tags/add');
    expect(calls[0]).toEqual({ page: 1, pageSize: 15, searchQuery: null, filter: 'All', sortField: 'Name', sortDirection: 'Asc' });
  });

  it('searches, filters and sorts on the server', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    renderApp({ path: '/publisher/tags', user: testUser('Editor'), mocks: [tagsMock(calls)] });
    await screen.findByRole('link', { name: 'Oil' });

    await user.type(screen.getByRole('searchbox', { name: 'Search tags...' }), 'gas');
    expect(await screen.findByText('Showing 1-1 of 1')).toBeInTheDocument();
    expect(names()).toEqual(['Gas']);
    expect(calls.at(-1)).toMatchObject({ searchQuery: 'gas', page: 1 });

    await user.clear(screen.getByRole('searchbox', { name: 'Search tags...' }));
    await screen.findByText('Showing 1-3 of 3');
    await user.click(within(screen.getByRole('group', { name: 'Filter' })).getByRole('button', { name: 'Empty tags' }));
    await screen.findByText('Showing 1-1 of 1');
    expect(calls.at(-1)).toMatchObject({ filter: 'Empty', page: 1 });

    await user.click(within(screen.getByRole('group', { name: 'Filter' })).getByRole('button', { name: 'All' }));
    await user.click(screen.getByRole('button', { name: 'Articles' }));
    await user.click(screen.getByRole('button', { name: 'Articles' }));
    await waitFor(() => expect(names()).toEqual(['Copper', 'Oil', 'Gas']));
    expect(calls.at(-1)).toMatchObject({ filter: 'All', sortField: 'ArticleCount', sortDirection: 'Desc' });
  });

  it("says 'There are no items to show' when nothing matches", async () => {
    const user = userEvent.setup();
    renderApp({ path: '/publisher/tags', user: testUser('Editor'), mocks: [tagsMock([])] });
    await screen.findByRole('link', { name: 'Oil' });
    await user.type(screen.getByRole('searchbox', { name: 'Search tags...' }), 'zinc');
    expect(await screen.findByText('There are no items to show')).toBeInTheDocument();
  });
});
