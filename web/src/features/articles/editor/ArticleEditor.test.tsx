import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../../lib/access';
import { testConfig, testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import {
  ArticleEditorArticleDocument,
  ArticleEditorContextDocument,
  ArticleEditorTemplateDocument,
} from './__generated__/ArticleEditor.generated';
import {
  ArticleEditorAddDocument,
  ArticleEditorEditDocument,
  ArticleEditorPublishAddDocument,
  ArticleEditorPublishEditDocument,
  type ArticleInput,
} from './__generated__/ArticleForm.generated';
import { ArticleEditorSubscribersCountDocument } from './__generated__/PublishDialog.generated';
import { RESUME_TITLE } from './ArticleForm';
import { EMPTY_VALUES, valuesFromArticle } from './articleValues';
import { toChannelChoice } from './channelRules';
import { draftKey, readDraft, writeDraft } from './localDraft';
import type { RichTextEditorProps } from '../../../components/richtext/RichTextEditor';
import { articleRecord, CHANNELS, CHRIS, IDS, meRecord, templateRecord } from './testData';

// The body editor and the pickers have their own tests; here they are simple stand-ins that keep
// their contracts: the body reads `initialHtml` again whenever `resetKey` changes.
vi.mock('../../../components/richtext/RichTextEditor', async () => {
  const { createElement } = await import('react');
  return {
    RichTextEditor: ({ initialHtml, resetKey, onChange, ariaLabel = 'Article body' }: RichTextEditorProps) =>
      createElement('textarea', {
        key: String(resetKey),
        'aria-label': ariaLabel,
        defaultValue: initialHtml,
        onChange: (e: { target: { value: string } }) => onChange(e.target.value),
      }),
  };
});
vi.mock('../../../components/pickers/TopicTreePicker', () => ({ TopicTreePicker: () => null }));
vi.mock('../../../components/pickers/TagPicker', () => ({ TagPicker: () => null }));
// The list the editor returns to has its own tests and queries.
vi.mock('../ArticleList', () => ({ default: () => 'The articles list' }));

const EDIT = `/publisher/articles/edit/${IDS.article}`;
const ADD = '/publisher/articles/add';
const channels = [CHANNELS.oil, CHANNELS.gas, CHANNELS.news].map(toChannelChoice);

function contextMock(role: Role = 'Editor', overrides: Record<string, unknown> = {}): MockLink.MockedResponse {
  return {
    request: { query: ArticleEditorContextDocument },
    result: { data: { me: meRecord({ role, ...overrides }), promotionalContentOptions: [] } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

function articleMock(record = articleRecord()): MockLink.MockedResponse {
  return { request: { query: ArticleEditorArticleDocument, variables: { id: record._id } }, result: { data: { findArticleById: record } } };
}

/** A mutation that records the item it was sent and answers with `answer`. */
function mutationMock(
  query: MockLink.MockedResponse['request']['query'],
  field: string,
  items: ArticleInput[],
  answer: MockLink.MockedResponse['result'] = {
    data: { [field]: { __typename: 'Article', _id: IDS.article, version: 5, state: 'Pending' } },
  },
): MockLink.MockedResponse {
  return {
    request: { query, variables: () => true },
    result: (variables: Record<string, unknown>) => {
      items.push(variables.item as ArticleInput);
      return answer as never;
    },
  };
}

function subscribersMock(channelId: string, count: number): MockLink.MockedResponse {
  return {
    request: { query: ArticleEditorSubscribersCountDocument, variables: { channelId } },
    result: { data: { getSubscribersCount: count } },
  };
}

const field = (label: string) => screen.getByLabelText(label, { selector: 'input, textarea, select' });

// The route loads the screen lazily; loading it first keeps the first test within findBy's wait.
beforeAll(async () => {
  await import('./ArticleEditor');
});

describe('ArticleEditor', () => {
  it('opens a pending article with its fields, Update draft, Publish and Archive', async () => {
    renderApp({ path: EDIT, user: testUser('Editor'), mocks: [contextMock(), articleMock()] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit article' })).toBeInTheDocument();
    expect(await screen.findByDisplayValue('Brent outlook')).toBe(field('Title'));
    expect(screen.getByRole('textbox', { name: 'Article body' })).toHaveValue('<p>Prices rise.</p>');

    const actions = within(screen.getByRole('group', { name: 'Article actions' }));
    expect(actions.getAllByRole('button').map((b) => b.textContent)).toEqual(['Update draft', 'Publish', 'Archive']);

    expect(field('Channel')).toHaveValue(IDS.oil);
    expect(screen.getByText('Published by: Oil desk')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Open to all' })).not.toBeChecked();
    expect(field('Premium expiry')).toHaveValue('1w');
    expect(screen.getByText(CHRIS.name)).toBeInTheDocument();
    expect(field('Summary')).toHaveValue('Where Brent goes next');
    expect(screen.getByText(`${250 - 'Where Brent goes next'.length} characters remaining`)).toBeInTheDocument();
    expect(field('Publish date')).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: 'Show watermark' })).toBeChecked();
    expect(screen.queryByRole('checkbox', { name: 'Display in chart section' })).not.toBeInTheDocument();
    expect(screen.getByText('Content is auto-saved locally in this browser until the article is saved.')).toBeInTheDocument();
    expect(screen.queryByText(RESUME_TITLE)).not.toBeInTheDocument();
  });

  it('offers a contributor no publish, no publish date and no change of a published article', async () => {
    renderApp({
      path: EDIT,
      user: testUser('Contributor'),
      mocks: [contextMock('Contributor'), articleMock(articleRecord({ state: 'Published', publishDate: '2026-03-01T09:30:00Z' }))],
    });
    const actions = within(await screen.findByRole('group', { name: 'Article actions' }));
    expect(actions.queryAllByRole('button')).toEqual([]);
    expect(screen.queryByLabelText('Publish date')).not.toBeInTheDocument();
  });

  it("offers a differing local draft, and 'Resume editing' loads it into the form and the body", async () => {
    const user = userEvent.setup();
    const opened = valuesFromArticle(articleRecord(), channels);
    writeDraft(window.localStorage, draftKey({ kind: 'edit', id: IDS.article }), {
      ...opened,
      title: 'Brent outlook, revised',
      html: '<p>Prices rise further.</p>',
      isPinned: true,
    });
    renderApp({ path: EDIT, user: testUser('Editor'), mocks: [contextMock(), articleMock()] });

    expect(await screen.findByText(RESUME_TITLE)).toBeInTheDocument();
    expect(field('Title')).toHaveValue('Brent outlook');
    await user.click(screen.getByRole('button', { name: 'Resume editing' }));

    expect(screen.queryByText(RESUME_TITLE)).not.toBeInTheDocument();
    expect(field('Title')).toHaveValue('Brent outlook, revised');
    expect(screen.getByRole('textbox', { name: 'Article body' })).toHaveValue('<p>Prices rise further.</p>');
    expect(screen.getByRole('checkbox', { name: 'Pin article' })).toBeChecked();
  });

  it("'Discard content' deletes the stored draft and keeps the article", async () => {
    const user = userEvent.setup();
    const key = draftKey({ kind: 'edit', id: IDS.article });
    writeDraft(window.localStorage, key, { ...valuesFromArticle(articleRecord(), channels), title: 'Old idea' });
    renderApp({ path: EDIT, user: testUser('Editor'), mocks: [contextMock(), articleMock()] });

    await user.click(await screen.findByRole('button', { name: 'Discard content' }));
    expect(screen.queryByText(RESUME_TITLE)).not.toBeInTheDocument();
    expect(field('Title')).toHaveValue('Brent outlook');
    expect(window.localStorage.getItem(key)).toBeNull();
  });

  it('lists what a refused publish is missing, and keeps the content in the local draft', async () => {
    const user = userEvent.setup();
    const sent: ArticleInput[] = [];
    const refusal = {
      errors: [
        {
          message: 'The article is not ready to publish',
          extensions: { code: 'BAD_USER_INPUT', gaps: ['TextAbsent', 'SummaryAbsent', 'ChannelAbsent', 'ContributorAbsent'] },
        },
      ],
    };
    renderApp({
      path: ADD,
      user: testUser('Editor'),
      mocks: [contextMock(), mutationMock(ArticleEditorPublishAddDocument, 'publishAdd', sent, refusal)],
    });

    const title = await screen.findByLabelText('Title', { selector: 'textarea' });
    // A new article: Save to draft and Publish, no Archive.
    const actions = within(screen.getByRole('group', { name: 'Article actions' }));
    expect(actions.getAllByRole('button').map((b) => b.textContent)).toEqual(['Save to draft', 'Publish']);

    await user.type(title, 'Gas{Enter}prices');
    expect(title).toHaveValue('Gas prices');
    await user.click(actions.getByRole('button', { name: 'Publish' }));

    // No channel: nobody to notify, a fresh publish always sends emails.
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Publish this article now? The channel has no subscribers to notify.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The article cannot be published yet')).toBeInTheDocument();
    const missing = within(within(alert).getByRole('list', { name: 'Missing for publishing' })).getAllByRole('listitem');
    expect(missing.map((li) => li.textContent)).toEqual(['Body text', 'Channel', 'Contributors', 'Summary']);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ title: 'Gas prices', sendEmails: true, premiumChannelId: null, isPremium: null });
    expect(readDraft(window.localStorage, draftKey({ kind: 'new' }))?.values.title).toBe('Gas prices');
    expect(actions.getByRole('button', { name: 'Publish' })).toBeEnabled();
  });

  it('needs a title before saving', async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: testUser('Contributor'), mocks: [contextMock('Contributor')] });
    await user.click(await screen.findByRole('button', { name: 'Save to draft' }));
    expect(field('Title')).toHaveAccessibleDescription('This field is required');
  });

  it('saves a draft, removes the local draft and returns to the list', async () => {
    const user = userEvent.setup();
    const sent: ArticleInput[] = [];
    const key = draftKey({ kind: 'edit', id: IDS.article });
    const { router } = renderApp({
      path: EDIT,
      user: testUser('Editor'),
      mocks: [contextMock(), articleMock(), mutationMock(ArticleEditorEditDocument, 'editArticle', sent)],
    });
    const title = await screen.findByDisplayValue('Brent outlook');
    await user.type(title, ' for Q3');
    writeDraft(window.localStorage, key, { ...EMPTY_VALUES, title: 'autosaved' });
    await user.click(screen.getByRole('button', { name: 'Update draft' }));

    expect(await screen.findByText('Article saved as a draft')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/publisher/articles'));
    expect(window.localStorage.getItem(key)).toBeNull();
    expect(sent).toEqual([
      {
        _id: IDS.article,
        version: 4,
        title: 'Brent outlook for Q3',
        html: '<p>Prices rise.</p>',
        summary: 'Where Brent goes next',
        premiumChannelId: IDS.oil,
        contributors: [IDS.chris],
        categories: [IDS.energy],
        tags: [IDS.brent],
        promotionalContentIds: [],
        isPremium: true,
        premiumExpiryOffset: '1w',
        publishDate: null,
        showWatermark: true,
        displayInChartSection: false,
        isPinned: false,
        isTimeless: false,
        templateId: null,
      },
    ]);
  });

  it('stores changed content on the autosave timer and shows the busy indicator after its delay', async () => {
    const user = userEvent.setup();
    const key = draftKey({ kind: 'edit', id: IDS.article });
    const config = testConfig();
    config.constants = { ...config.constants, autosaveIntervalMs: 50, busyIndicatorDelayMs: 150 };
    const slowEdit = { ...mutationMock(ArticleEditorEditDocument, 'editArticle', []), delay: 600 };
    renderApp({ path: EDIT, user: testUser('Editor'), config, mocks: [contextMock(), articleMock(), slowEdit] });

    const title = await screen.findByDisplayValue('Brent outlook');
    // Unchanged content is never stored.
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(window.localStorage.getItem(key)).toBeNull();
    await user.type(title, ' today');
    await waitFor(() => expect(readDraft(window.localStorage, key)?.values.title).toBe('Brent outlook today'));

    await user.click(screen.getByRole('button', { name: 'Update draft' }));
    expect(screen.queryByText('Saving…')).not.toBeInTheDocument();
    expect(await screen.findByText('Saving…')).toHaveAttribute('role', 'status');
    await waitFor(() => expect(window.localStorage.getItem(key)).toBeNull());
  });

  it('keeps the content on screen when the version is stale', async () => {
    const user = userEvent.setup();
    const message = 'This article was changed by someone else. Reload it to see their changes.';
    renderApp({
      path: EDIT,
      user: testUser('Editor'),
      mocks: [
        contextMock(),
        articleMock(),
        mutationMock(ArticleEditorEditDocument, 'editArticle', [], { errors: [{ message, extensions: { code: 'CONFLICT' } }] }),
      ],
    });
    const title = await screen.findByDisplayValue('Brent outlook');
    await user.type(title, '!');
    await user.click(screen.getByRole('button', { name: 'Update draft' }));

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload the article' })).toBeInTheDocument();
    expect(field('Title')).toHaveValue('Brent outlook!');
    expect(readDraft(window.localStorage, draftKey({ kind: 'edit', id: IDS.article }))?.values.title).toBe('Brent outlook!');
  });

  it('updates a published article and notifies the subscribers only when asked', async () => {
    const user = userEvent.setup();
    const sent: ArticleInput[] = [];
    const published = articleRecord({ state: 'Published', publishDate: '2026-03-01T09:30:00Z', wasPublishedPreviously: true });
    renderApp({
      path: EDIT,
      user: testUser('Editor'),
      mocks: [
        contextMock(),
        articleMock(published),
        subscribersMock(IDS.oil, 3),
        mutationMock(ArticleEditorPublishEditDocument, 'publishEdit', sent),
      ],
    });
    await user.click(await screen.findByRole('button', { name: 'Update' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Update article' });
    const notify = await within(dialog).findByRole('checkbox', { name: 'Notify 3 subscribers by email' });
    expect(notify).not.toBeChecked();
    await user.click(notify);
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('Article updated')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({ _id: IDS.article, version: 4, sendEmails: true, publishDate: '2026-03-01T09:30:00.000Z' });
  });

  it('changing the channel resets the contributors and shows the new publisher', async () => {
    const user = userEvent.setup();
    renderApp({ path: EDIT, user: testUser('Editor'), mocks: [contextMock(), articleMock()] });
    const channel = await screen.findByLabelText('Channel', { selector: 'select' });
    expect(screen.getByText(CHRIS.name)).toBeInTheDocument();

    await user.selectOptions(channel, IDS.news);
    expect(screen.getByText('Published by: News desk')).toBeInTheDocument();
    expect(screen.queryByText(CHRIS.name)).not.toBeInTheDocument();
    // freeOpen: no open-to-all, no expiry.
    expect(screen.queryByRole('checkbox', { name: 'Open to all' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Premium expiry')).not.toBeInTheDocument();

    await user.selectOptions(channel, IDS.oil);
    await user.selectOptions(field('Premium expiry'), '1m');
    await user.click(screen.getByRole('checkbox', { name: 'Open to all' }));
    expect(screen.queryByLabelText('Premium expiry')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Open to all' }));
    expect(field('Premium expiry')).toHaveValue('');
  });

  it('with premium features off, offers no open-to-all nor premium expiry and shows who reads the article', async () => {
    const user = userEvent.setup();
    const off = testConfig({ features: { ...testConfig().features, premiumFeatures: false } });
    renderApp({ path: EDIT, user: testUser('Editor'), mocks: [contextMock(), articleMock()], config: off });
    const channel = await screen.findByLabelText('Channel', { selector: 'select' });
    expect(screen.queryByRole('checkbox', { name: 'Open to all' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Premium expiry')).not.toBeInTheDocument();
    // The article's own terms, kept by the server: premium for a week.
    expect(screen.getByText("Readers: the channel's subscribers for 1 week, then all")).toBeInTheDocument();
    await user.selectOptions(channel, IDS.gas);
    expect(screen.getByText("Readers: the channel's subscribers")).toBeInTheDocument();
    await user.selectOptions(channel, IDS.news);
    expect(screen.queryByText(/^Readers:/)).not.toBeInTheDocument();
  });

  it('starts from a template and sends its id', async () => {
    const user = userEvent.setup();
    const sent: ArticleInput[] = [];
    renderApp({
      path: `/publisher/articles/add-from-template/${IDS.template}`,
      user: testUser('Contributor'),
      mocks: [
        contextMock('Contributor'),
        {
          request: { query: ArticleEditorTemplateDocument, variables: { id: IDS.template } },
          result: { data: { findTemplateById: templateRecord() } },
        },
        mutationMock(ArticleEditorAddDocument, 'addArticle', sent),
      ],
    });
    expect(await screen.findByDisplayValue('Morning note 05 Mar 2026')).toBe(field('Title'));
    expect(screen.getByText('Published by: Chris Contributor')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save to draft' }));

    // (The toast of an earlier test may still be up: wait for the call itself.)
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ templateId: IDS.template, premiumChannelId: IDS.gas, contributors: [IDS.chris], isPremium: true });
    expect(sent[0]).not.toHaveProperty('publishDate');
  });

  it('goes back to the list when the server refuses the article', async () => {
    const { router } = renderApp({
      path: EDIT,
      user: testUser('Contributor'),
      mocks: [
        contextMock('Contributor'),
        {
          request: { query: ArticleEditorArticleDocument, variables: { id: IDS.article } },
          result: { errors: [{ message: 'Not yours', extensions: { code: 'FORBIDDEN' } }] },
        },
      ],
    });
    expect(await screen.findByText('You may not edit this article.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/publisher/articles'));
  });
});
