import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testConfig, testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { categoryRecord, IDS, SAMPLE_TREE, topicTreeMock } from '../../testing/taxonomy';
import {
  AddTopicDocument,
  DeleteTopicDocument,
  PromotionalContentOptionsDocument,
  TopicByIdDocument,
} from './__generated__/TopicForm.generated';
import { stubObjectUrls } from '../../testing/objectUrls';

const promos: MockLink.MockedResponse = {
  request: { query: PromotionalContentOptionsDocument },
  result: {
    data: {
      promotionalContentOptions: [{ __typename: 'PromotionalContentSummary', _id: '65c000000000000000000001', name: 'Spring offer' }],
    },
  },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

const byId = (record: ReturnType<typeof categoryRecord>): MockLink.MockedResponse => ({
  request: { query: TopicByIdDocument, variables: { id: record._id } },
  result: { data: { findCategoryById: record } },
});

const editor = testUser('Editor');
const form = () => within(screen.getByRole('form'));
const optionTexts = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((o) => o.textContent?.trim());

// The route loads these lazily; loading them first keeps the first test within findBy's wait.
beforeAll(async () => {
  await import('./TopicForm');
  await import('./TopicList');
});

describe('TopicForm', () => {
  it('never offers the topic itself or its sub-topics as the parent', async () => {
    renderApp({
      path: `/publisher/topics/edit/${IDS.oil}`,
      user: editor,
      mocks: [byId(categoryRecord()), topicTreeMock(SAMPLE_TREE), promos],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit topic' })).toBeInTheDocument();
    const parent = screen.getByRole('combobox', { name: 'Parent topic' });
    await within(parent).findByRole('option', { name: 'Energy' });
    expect(optionTexts(parent)).toEqual(['None (top-level topic)', 'Energy', 'Metals']);
    expect(parent).toHaveValue(IDS.energy);
  });

  it('offers the whole tree, indented, to a new topic', async () => {
    renderApp({ path: '/publisher/topics/add', user: editor, mocks: [topicTreeMock(SAMPLE_TREE), promos] });
    const parent = await screen.findByRole('combobox', { name: 'Parent topic' });
    await within(parent).findByRole('option', { name: 'Energy' });
    expect(optionTexts(parent)).toEqual(['None (top-level topic)', 'Energy', 'Oil', 'Crude', 'Metals']);
    expect(within(parent).getByRole('option', { name: /Crude/ }).textContent).toMatch(/^\u00a0{8}Crude$/);
  });

  it('clears and disables Sector once a parent is chosen', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/publisher/topics/add', user: editor, mocks: [topicTreeMock(SAMPLE_TREE), promos] });
    const sector = await screen.findByRole('checkbox', { name: 'Sector' });
    await user.click(sector);
    expect(sector).toBeChecked();

    const parent = screen.getByRole('combobox', { name: 'Parent topic' });
    await within(parent).findByRole('option', { name: 'Metals' });
    await user.selectOptions(parent, IDS.metals);
    expect(sector).not.toBeChecked();
    expect(sector).toBeDisabled();

    await user.selectOptions(parent, '');
    expect(sector).toBeEnabled();
    expect(sector).not.toBeChecked();
  });

  it("adds a sub-topic, says 'The topic Gas has been added.' and shows the tree", async () => {
    const user = userEvent.setup();
    const item = {
      name: 'Gas',
      description: 'Natural gas',
      parent: IDS.energy,
      isFeatured: false,
      smallImage: null,
      largeImage: null,
      promotionalContentId: '65c000000000000000000001',
      isLocked: false,
      isPremium: true,
    };
    const add = vi.fn(() => ({ data: { addCategory: categoryRecord({ ...item, _id: IDS.gas, articleCount: 0 }) } }));
    renderApp({
      path: '/publisher/topics/add',
      user: editor,
      mocks: [topicTreeMock(SAMPLE_TREE), promos, { request: { query: AddTopicDocument, variables: { item } }, result: add }],
    });
    await user.type(await screen.findByLabelText('Name'), 'Gas');
    await user.type(screen.getByLabelText('Description'), 'Natural gas');
    const parent = screen.getByRole('combobox', { name: 'Parent topic' });
    await within(parent).findByRole('option', { name: 'Energy' });
    await user.selectOptions(parent, IDS.energy);
    const promo = screen.getByRole('combobox', { name: 'Promotional content' });
    await within(promo).findByRole('option', { name: 'Spring offer' });
    await user.selectOptions(promo, 'Spring offer');
    await user.click(screen.getByRole('checkbox', { name: 'Premium' }));
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('The topic Gas has been added.')).toBeInTheDocument();
    expect(add).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('table', { name: 'Topics' })).toBeInTheDocument();
  });

  it("uses 'category' everywhere when premium channels are off", async () => {
    const user = userEvent.setup();
    const config = testConfig();
    const item = { ...categoryRecord(), name: 'Oil' };
    renderApp({
      path: '/publisher/categories/add',
      user: editor,
      config: { ...config, features: { ...config.features, premiumChannels: false } },
      mocks: [
        topicTreeMock(SAMPLE_TREE),
        promos,
        {
          request: { query: AddTopicDocument, variables: (v: Record<string, { name?: string }>) => v.item?.name === 'Fuels' },
          result: { data: { addCategory: { ...item, _id: IDS.gas, name: 'Fuels', parent: null } } },
        },
      ],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add category' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Categories' })).toHaveAttribute(
      'href',
      '/publisher/categories',
    );
    expect(screen.getByRole('combobox', { name: 'Parent category' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'Fuels');
    await user.type(screen.getByLabelText('Description'), 'All fuels');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The category Fuels has been added.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Categories' })).toBeInTheDocument();
  });

  it("asks before deleting, saying how many articles lose the topic, and shows the server's CONFLICT", async () => {
    const user = userEvent.setup();
    const energy = categoryRecord({ _id: IDS.energy, name: 'Energy', parent: null, articleCount: 3 });
    renderApp({
      path: `/publisher/topics/edit/${IDS.energy}`,
      user: editor,
      mocks: [
        byId(energy),
        topicTreeMock(SAMPLE_TREE),
        promos,
        {
          request: { query: DeleteTopicDocument, variables: { id: IDS.energy } },
          result: {
            errors: [{ message: 'This topic has 1 sub-topics: move or delete them first', extensions: { code: 'CONFLICT' } }],
          },
        },
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit topic' });
    await user.click(form().getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete topic' });
    expect(dialog).toHaveTextContent('Delete the topic Energy? 3 articles use this topic and will lose it.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await form().findByRole('alert')).toHaveTextContent('CONFLICT::This topic has 1 sub-topics: move or delete them first');
    expect(screen.getByRole('heading', { level: 1, name: 'Edit topic' })).toBeInTheDocument();
  });

  it('uploads a card image with the bearer token and shows its preview; other files are refused', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () =>
        new Response(JSON.stringify({ link: '/uploads/abc.png', fileName: 'abc.png', contentType: 'image/png', size: 3 }), { status: 201 }),
      );
    stubObjectUrls();
    renderApp({ path: '/publisher/topics/add', user: editor, mocks: [topicTreeMock(SAMPLE_TREE), promos] });
    const card = await screen.findByLabelText('Card image');

    await user.upload(card, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Choose a png, jpg, jpeg or gif image')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.upload(card, new File(['png'], 'card.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByRole('img', { name: 'Card image preview' })).toHaveAttribute('src', 'blob:image'));
    expect(fetchMock.mock.calls[1][0]).toBe('/uploads/abc.png');
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/upload');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer test-access-token');
    expect((init?.body as FormData).get('file')).toBeInstanceOf(File);
  });
});
