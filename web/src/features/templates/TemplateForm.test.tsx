import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { StaffUsersDocument, type StaffUsersQueryVariables } from '../../components/admin/__generated__/UserPicker.generated';
import { formatDate } from '../../lib/dates';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
// The form embeds the article pickers, whose queries the tests answer.
import { TagPickerSearchDocument } from '../../components/pickers/__generated__/TagPicker.generated';
import { TopicTreePickerDocument } from '../../components/pickers/__generated__/TopicTreePicker.generated';
import {
  AddTemplateDocument,
  DeleteTemplateDocument,
  EditTemplateDocument,
  TemplateByIdDocument,
  TemplateFormChannelsDocument,
} from './__generated__/TemplateForm.generated';
import { TemplateListDocument } from './__generated__/TemplateList.generated';
import { channelOptions, toTemplateInput, validateTemplate, type TemplateValues } from './TemplateForm';
import { channel, OIL_DESK, person, TEMPLATE_IDS as ID, topic } from './testData';

const CHRIS = person(ID.chris, 'Chris Contributor');
const ERIN = person(ID.erin, 'Erin Editor');
const OPEC = { __typename: 'Tag', _id: ID.opec, name: 'OPEC' };

function templateRecord(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Template',
    _id: ID.morning,
    title: 'Morning report {{today}}',
    html: '<p>Good morning</p>',
    version: 4,
    canEdit: true,
    usedArticlesNumber: 3,
    created: '2024-01-05T12:00:00Z',
    lastEdited: '2024-02-10T12:00:00Z',
    author: ERIN,
    premiumChannel: channel(ID.oilChannel, 'Oil Weekly'),
    contributors: [CHRIS],
    categories: [topic(ID.oil, 'Oil')],
    tags: [{ __typename: 'ArticleTag', _id: ID.opec, name: 'OPEC' }],
    ...overrides,
  };
}

const channelsMock: MockLink.MockedResponse = {
  request: { query: TemplateFormChannelsDocument },
  result: {
    data: {
      me: {
        __typename: 'User',
        _id: '65a1b2c3d4e5f60718293a4b',
        channelsToPublish: [
          { __typename: 'Channel', _id: ID.gasChannel, name: 'Gas Daily' },
          { __typename: 'Channel', _id: ID.oilChannel, name: 'Oil Weekly' },
        ],
      },
    },
  },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

/** Energy > Oil. */
const topicsMock: MockLink.MockedResponse = {
  request: { query: TopicTreePickerDocument },
  result: {
    data: {
      categoriesAsTree: [
        {
          __typename: 'Category',
          _id: ID.energy,
          name: 'Energy',
          children: [{ __typename: 'Category', _id: ID.oil, name: 'Oil', children: [] }],
        },
      ],
    },
  },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

const tagsMock: MockLink.MockedResponse = {
  request: { query: TagPickerSearchDocument, variables: () => true },
  result: { data: { tags: { __typename: 'TagPage', total: 1, items: [OPEC] } } },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

const staffMock: MockLink.MockedResponse = {
  request: { query: StaffUsersDocument, variables: () => true },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: (variables: Record<string, unknown>) => {
    const q = (variables as StaffUsersQueryVariables).searchQuery?.toLowerCase() ?? '';
    return { data: { staffUsers: [CHRIS, ERIN].filter((u) => u.name.toLowerCase().includes(q)) } };
  },
};

/** The list the form returns to. */
const listMock: MockLink.MockedResponse = {
  request: { query: TemplateListDocument },
  result: {
    data: {
      templates: [
        {
          __typename: 'Template',
          _id: ID.morning,
          title: 'Morning report {{today}}',
          canEdit: true,
          usedArticlesNumber: 3,
          created: '2024-01-05T12:00:00Z',
          lastEdited: '2024-02-10T12:00:00Z',
          publishedBy: OIL_DESK,
          premiumChannel: { __typename: 'ArticleChannel', _id: ID.oilChannel, name: 'Oil Weekly' },
          categories: [topic(ID.oil, 'Oil')],
        },
      ],
    },
  },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

const byId = (record = templateRecord()): MockLink.MockedResponse => ({
  request: { query: TemplateByIdDocument, variables: { id: record._id } },
  result: { data: { findTemplateById: record } },
});

const BASE_MOCKS = [channelsMock, topicsMock, tagsMock, staffMock, listMock];
const editor = testUser('Editor');
const form = () => within(screen.getByRole('form'));

beforeAll(async () => {
  await import('./TemplateForm');
  await import('./TemplateList');
});

describe('validateTemplate and toTemplateInput', () => {
  const valid: TemplateValues = {
    title: 'Morning report',
    html: '',
    premiumChannelId: ID.oilChannel,
    contributors: [],
    categories: [],
    tags: [],
  };

  it('requires a title and a channel', () => {
    expect(validateTemplate(valid)).toEqual({});
    expect(validateTemplate({ ...valid, title: '  ', premiumChannelId: null })).toEqual({
      title: 'This field is required.',
      premiumChannelId: 'This field is required.',
    });
  });

  it('sends ids and a trimmed title', () => {
    expect(
      toTemplateInput({
        ...valid,
        title: ' Daily {{today}} ',
        contributors: [CHRIS],
        categories: [ID.oil],
        tags: [{ _id: ID.opec, name: 'OPEC' }],
      }),
    ).toEqual({
      title: 'Daily {{today}}',
      html: '',
      premiumChannelId: ID.oilChannel,
      contributors: [ID.chris],
      categories: [ID.oil],
      tags: [ID.opec],
    });
  });

  it("offers the template's own channel when the viewer may no longer publish to it", () => {
    const archived = { __typename: 'ArticleChannel' as const, _id: ID.archivedChannel, name: 'Coal', state: 'archived' };
    expect(channelOptions([{ _id: ID.oilChannel, name: 'Oil Weekly' }], archived)).toEqual([
      { value: ID.oilChannel, label: 'Oil Weekly' },
      { value: ID.archivedChannel, label: 'Coal (archived)' },
    ]);
    expect(channelOptions([{ _id: ID.oilChannel, name: 'Oil Weekly' }], null)).toHaveLength(1);
  });
});

describe('TemplateForm', () => {
  it('shows the required messages once the title is touched and on submit, and sends nothing', async () => {
    const user = userEvent.setup();
    const add = vi.fn(() => ({ data: { addTemplate: templateRecord() } }));
    renderApp({
      path: '/publisher/templates/add',
      user: editor,
      mocks: [...BASE_MOCKS, { request: { query: AddTemplateDocument, variables: () => true }, result: add }],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'New template' })).toBeInTheDocument();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Templates' })).toHaveAttribute('href', '/publisher/templates');
    expect(crumbs.getByText('New template')).toHaveAttribute('aria-current', 'page');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Template details',
      'Article details',
      'Taxonomies',
    ]);
    expect(screen.getByText(/\{\{today\}\} in the title becomes the date the article is started/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Template body' })).toBeInTheDocument();
    // No sidebar and no delete for a new template.
    expect(screen.queryByRole('complementary', { name: 'Template summary' })).not.toBeInTheDocument();
    expect(form().queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();

    await user.click(screen.getByLabelText('Title'));
    await user.tab();
    expect(screen.getByLabelText('Title')).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByLabelText('Channel')).not.toHaveAccessibleDescription();

    await user.click(form().getByRole('button', { name: 'Add' }));
    expect(screen.getByLabelText('Channel')).toHaveAccessibleDescription('This field is required.');
    expect(add).not.toHaveBeenCalled();
  });

  it("adds a template with its channel, contributors, topics and tags and says 'The template … has been added.'", async () => {
    const user = userEvent.setup();
    const item = {
      title: 'Morning report {{today}}',
      html: '',
      premiumChannelId: ID.oilChannel,
      contributors: [ID.erin],
      categories: [ID.oil],
      tags: [ID.opec],
    };
    const add = vi.fn(() => ({ data: { addTemplate: templateRecord() } }));
    renderApp({
      path: '/publisher/templates/add',
      user: editor,
      mocks: [...BASE_MOCKS, { request: { query: AddTemplateDocument, variables: { item } }, result: add }],
    });
    await user.type(await screen.findByLabelText('Title'), 'Morning report {{{{today}}');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Oil Weekly' })).toBeInTheDocument());
    expect(
      within(screen.getByLabelText('Channel'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a channel', 'Gas Daily', 'Oil Weekly']);
    await user.selectOptions(screen.getByLabelText('Channel'), 'Oil Weekly');

    await user.type(screen.getByRole('combobox', { name: 'Contributors' }), 'erin');
    // Enter once the search has answered, so that Erin is the only suggestion.
    await waitFor(() =>
      expect(
        within(screen.getByRole('listbox', { name: 'Suggested users' }))
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Erin Editor erin@insights.example']),
    );
    await user.keyboard('{Enter}');

    const tree = await screen.findByRole('tree', { name: 'Topics' });
    await user.click(within(tree).getByText('Energy').closest('li')!.querySelector('.insights-topic-toggle')!);
    await user.click(within(tree).getByText('Oil'));

    await user.type(screen.getByRole('combobox', { name: 'Tags' }), 'opec');
    await waitFor(() => expect(screen.getByRole('option', { name: 'OPEC' })).toHaveAttribute('aria-selected', 'true'));
    await user.keyboard('{Enter}');
    expect(within(screen.getByRole('list', { name: 'Chosen tags' })).getByText('OPEC')).toBeInTheDocument();

    await user.click(form().getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The template Morning report {{today}} has been added.')).toBeInTheDocument();
    expect(add).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { level: 1, name: 'Templates' })).toBeInTheDocument();
  }, 20_000);

  it('loads a template, shows its dates, and sends the edit with its id and version', async () => {
    const user = userEvent.setup();
    const item = {
      _id: ID.morning,
      version: 4,
      title: 'Evening report {{today}}',
      html: '<p>Good morning</p>',
      premiumChannelId: ID.gasChannel,
      contributors: [ID.chris],
      categories: [ID.oil],
      tags: [],
    };
    const edit = vi.fn(() => ({ data: { editTemplate: templateRecord({ title: item.title, version: 5 }) } }));
    renderApp({
      path: `/publisher/templates/edit/${ID.morning}`,
      user: editor,
      mocks: [byId(), ...BASE_MOCKS, { request: { query: EditTemplateDocument, variables: { item } }, result: edit }],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit template' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Edit template')).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Morning report {{today}}');
    await waitFor(() => expect(screen.getByLabelText('Channel')).toHaveValue(ID.oilChannel));
    expect(screen.getByText('Chris Contributor')).toBeInTheDocument();
    // The chosen topic's branch is open and it is checked.
    expect(await screen.findByRole('treeitem', { name: 'Oil' })).toHaveAttribute('aria-checked', 'true');

    const aside = within(screen.getByRole('complementary', { name: 'Template summary' }));
    expect(aside.getByText('Last edited').nextSibling).toHaveTextContent(formatDate(new Date('2024-02-10T12:00:00Z')));
    expect(aside.getByText('Created').nextSibling).toHaveTextContent(formatDate(new Date('2024-01-05T12:00:00Z')));
    expect(aside.getByText('Created by').nextSibling).toHaveTextContent('Erin Editor');
    expect(aside.getByText('Used by').nextSibling).toHaveTextContent('3 articles');

    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Evening report {{{{today}}');
    await user.selectOptions(screen.getByLabelText('Channel'), 'Gas Daily');
    await user.click(screen.getByRole('button', { name: 'Remove OPEC' }));
    await user.click(form().getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('The template Evening report {{today}} has been updated.')).toBeInTheDocument();
    expect(edit).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { level: 1, name: 'Templates' })).toBeInTheDocument();
  }, 20_000);

  it('goes back to the list without a call when nothing changed', async () => {
    const user = userEvent.setup();
    const edit = vi.fn(() => ({ data: { editTemplate: templateRecord() } }));
    renderApp({
      path: `/publisher/templates/edit/${ID.morning}`,
      user: editor,
      mocks: [byId(), ...BASE_MOCKS, { request: { query: EditTemplateDocument, variables: () => true }, result: edit }],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit template' });
    await user.click(form().getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Templates' })).toBeInTheDocument();
    expect(edit).not.toHaveBeenCalled();
  });

  it("shows the server's CONFLICT when the template changed meanwhile, and stays on the form", async () => {
    const user = userEvent.setup();
    const message = 'The template was changed by someone else: reload it and try again';
    renderApp({
      path: `/publisher/templates/edit/${ID.morning}`,
      user: editor,
      mocks: [
        byId(),
        ...BASE_MOCKS,
        {
          request: { query: EditTemplateDocument, variables: () => true },
          result: { errors: [{ message, extensions: { code: 'CONFLICT' } }] },
        },
      ],
    });
    await user.type(await screen.findByLabelText('Title'), '!');
    await user.click(form().getByRole('button', { name: 'Update' }));
    expect(await form().findByRole('alert')).toHaveTextContent(`CONFLICT::${message}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Edit template' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Morning report {{today}}!');
  });

  it('asks before deleting, then goes back to the list with a message', async () => {
    const user = userEvent.setup();
    const remove = vi.fn(() => ({
      data: { deleteTemplate: { __typename: 'DeleteResult', _id: ID.morning, name: 'Morning report {{today}}' } },
    }));
    renderApp({
      path: `/publisher/templates/edit/${ID.morning}`,
      user: editor,
      mocks: [byId(), ...BASE_MOCKS, { request: { query: DeleteTemplateDocument, variables: { id: ID.morning } }, result: remove }],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit template' });
    await user.click(form().getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete template' });
    expect(dialog).toHaveTextContent('Delete the template Morning report {{today}}?');
    expect(dialog).toHaveTextContent('Articles started from it (3 articles) keep their content.');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(remove).not.toHaveBeenCalled();

    await user.click(form().getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The template Morning report {{today}} has been deleted.')).toBeInTheDocument();
    expect(remove).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { level: 1, name: 'Templates' })).toBeInTheDocument();
  });

  it('shows a template the viewer may not change as read only', async () => {
    renderApp({
      path: `/publisher/templates/edit/${ID.morning}`,
      user: editor,
      mocks: [byId(templateRecord({ canEdit: false })), ...BASE_MOCKS],
    });
    expect(await screen.findByText('Only an editor can change this template.')).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toBeDisabled();
    expect(screen.getByLabelText('Channel')).toBeDisabled();
    expect(form().queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(form().queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
