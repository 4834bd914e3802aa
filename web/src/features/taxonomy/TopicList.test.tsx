import type { MockLink } from '@apollo/client/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testConfig, testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { IDS, SAMPLE_TREE, topicTreeMock } from '../../testing/taxonomy';
import { TopicFollowersDocument } from './__generated__/TopicSubscriberStats.generated';
import { EditTopicDocument, TopicByIdDocument } from './__generated__/TopicForm.generated';
import { categoryRecord } from '../../testing/taxonomy';

const rows = () =>
  within(screen.getByRole('table', { name: 'Topics' }))
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1);

// The route loads these lazily; loading them first keeps the first test within findBy's wait.
beforeAll(async () => {
  await import('./TopicList');
  await import('./TopicSubscriberStats');
});

describe('TopicList', () => {
  it('shows the roots with their counts and opens sub-topics', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/publisher/topics', user: testUser('Editor'), mocks: [topicTreeMock(SAMPLE_TREE)] });
    expect(await screen.findByRole('link', { name: 'Energy' })).toHaveAttribute('href', `/publisher/topics/edit/${IDS.energy}`);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name',
      'Description',
      'Articles',
      'Followers',
      'Views',
      'Actions',
    ]);
    expect(rows().map((r) => [...r.cells].map((c) => c.textContent))).toEqual([
      ['Energy', 'About Energy', '3', '7', '120', 'Move to…'],
      ['Metals', 'About Metals', '5', '0', '9', 'Move to…'],
    ]);
    expect(screen.getByRole('combobox', { name: 'Page size' })).toHaveValue('100');
    expect(screen.getByRole('link', { name: 'Add topic' })).toHaveAttribute('href', '/publisher/topics/add');

    await user.click(screen.getByRole('button', { name: 'Expand Energy' }));
    await user.click(screen.getByRole('button', { name: 'Expand Oil' }));
    expect(rows().map((r) => r.cells[0].textContent)).toEqual(['Energy', 'Oil', 'Crude', 'Metals']);

    // Sorting applies to every level.
    await user.click(screen.getByRole('button', { name: 'Views' }));
    await user.click(screen.getByRole('button', { name: 'Views' }));
    expect(rows().map((r) => r.cells[0].textContent)).toEqual(['Energy', 'Oil', 'Crude', 'Metals']);
    await user.click(screen.getByRole('button', { name: 'Articles' }));
    expect(rows().map((r) => r.cells[0].textContent)).toEqual(['Energy', 'Oil', 'Crude', 'Metals']);
    await user.click(screen.getByRole('button', { name: 'Articles' }));
    expect(rows().map((r) => r.cells[0].textContent)).toEqual(['Metals', 'Energy', 'Oil', 'Crude']);
  });

  it('links the followers count to the subscriber stats, which list the followers', async () => {
    const user = userEvent.setup();
    const followers: MockLink.MockedResponse = {
      request: { query: TopicFollowersDocument, variables: { id: IDS.energy, page: 1, pageSize: 15 } },
      result: {
        data: {
          findCategoryById: { __typename: 'Category', _id: IDS.energy, name: 'Energy', subscribersCount: 1 },
          categoryFollowers: {
            __typename: 'FollowerPage',
            total: 1,
            items: [
              {
                __typename: 'Follower',
                _id: 'u1',
                name: 'Ann Reader',
                email: 'ann@example.com',
                company: 'Acme',
                followedAt: '2026-03-05T09:07:00Z',
              },
            ],
          },
        },
      },
    };
    renderApp({ path: '/publisher/topics', user: testUser('Editor'), mocks: [topicTreeMock(SAMPLE_TREE), followers] });
    await user.click(await screen.findByRole('link', { name: '7 followers of Energy' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Energy: followers' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Followers' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Company', 'Followed at']);
    const cells = [...within(table).getAllByRole<HTMLTableRowElement>('row')[1].cells].map((c) => c.textContent);
    expect(cells.slice(0, 3)).toEqual(['Ann Reader', 'ann@example.com', 'Acme']);
    expect(cells[3]).toMatch(/^\d\d Mar 2026 \d\d:\d\d$/);
    expect(screen.getByText('Showing 1-1 of 1')).toBeInTheDocument();
  });

  it('shows the followers count as plain text to contributors, who cannot open subscriber stats', async () => {
    renderApp({ path: '/publisher/topics', user: testUser('Contributor'), mocks: [topicTreeMock(SAMPLE_TREE)] });
    await screen.findByRole('link', { name: 'Energy' });
    expect(screen.queryByRole('link', { name: /followers of/ })).not.toBeInTheDocument();
  });

  it("is titled 'Categories' on /publisher/categories when premium channels are off", async () => {
    const config = testConfig();
    renderApp({
      path: '/publisher/categories',
      user: testUser('Administrator'),
      config: { ...config, features: { ...config.features, premiumChannels: false } },
      mocks: [topicTreeMock(SAMPLE_TREE)],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Categories' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Add category' })).toHaveAttribute('href', '/publisher/categories/add');
    expect(await screen.findByRole('link', { name: 'Energy' })).toHaveAttribute('href', `/publisher/categories/edit/${IDS.energy}`);
  });

  it("moves a topic to another parent with 'Move to…', without dragging", async () => {
    const user = userEvent.setup();
    const oil = categoryRecord();
    const edit = {
      request: {
        query: EditTopicDocument,
        variables: {
          item: {
            name: 'Oil',
            description: 'About Oil',
            parent: IDS.metals,
            isFeatured: false,
            smallImage: null,
            largeImage: null,
            promotionalContentId: null,
            isLocked: false,
            isPremium: false,
            _id: IDS.oil,
            version: 1,
          },
        },
      },
      result: { data: { editCategory: { ...oil, parent: IDS.metals, version: 2 } } },
    };
    renderApp({
      path: '/publisher/topics',
      user: testUser('Editor'),
      mocks: [
        topicTreeMock(SAMPLE_TREE),
        { request: { query: TopicByIdDocument, variables: { id: IDS.oil } }, result: { data: { findCategoryById: oil } } },
        edit,
        topicTreeMock(SAMPLE_TREE),
      ],
    });
    await user.click(await screen.findByRole('button', { name: 'Expand Energy' }));
    await user.click(screen.getByRole('button', { name: 'Move to… (Oil)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move Oil' });
    const parent = within(dialog).getByRole('combobox', { name: 'New parent topic' });
    expect(parent).toHaveValue(IDS.energy);
    // Not under itself or its own sub-topics.
    expect(within(parent).queryByRole('option', { name: /Crude/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Move' })).toBeDisabled();

    await user.selectOptions(parent, IDS.metals);
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('The topic Oil has been moved.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Move Oil' })).not.toBeInTheDocument();
  });
});
