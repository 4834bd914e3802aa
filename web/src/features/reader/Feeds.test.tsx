import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { COPIED_TEXT } from '../../lib/secrets/ShownOnce';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { accessToken, feedLink, LAST_USED_AT, revokeMocks, type ScopeSpec, type SecretsState } from '../../testing/secrets';
import { tableCells } from '../../testing/tables';
import { TREE, treeMock } from './browse/testData';
import { AccessTokens, FEED_SHOWN_ONCE, FeedLinks, REQUIRED_TEXT, TOKEN_SHOWN_ONCE } from './Feeds';
import { cards, channel, MARCH_5, READER_IDS, renderInRouter } from './testData';
import { ChannelsScreenDocument } from './__generated__/Channels.generated';
import {
  CreateAccessTokenDocument,
  CreateFeedLinkDocument,
  MyAccessTokensDocument,
  MyFeedLinksDocument,
} from './__generated__/Feeds.generated';
import { MyInvoicesDocument } from './__generated__/Invoices.generated';
import { ReadingStatementDocument } from './__generated__/ReadingStatement.generated';
import { SubscriptionArticlesDocument, SubscriptionsScreenDocument } from './__generated__/Subscriptions.generated';

const METALS_PRO = READER_IDS.metalsChannel;
const FEED_URL = 'https://insights.example.com/feeds/insights_feed_s3cr3t.atom';
const TOKEN_SECRET = 'insights_pat_t0k3n';

const invalid = (fields: Record<string, string>) => new GraphQLError('Invalid input', { extensions: { code: 'BAD_USER_INPUT', fields } });

/**
 * A small server: the reader's links and tokens, changed by the mutations; what each mutation was
 * sent; `refuse` makes the next creation fail with these errors.
 */
function server(links: SecretsState['links'] = [], tokens: SecretsState['tokens'] = []) {
  const state = {
    links,
    tokens,
    created: [] as Record<string, unknown>[],
    revoked: [] as string[],
    refuse: null as GraphQLError[] | null,
  };
  const refused = () => {
    const errors = state.refuse;
    state.refuse = null;
    return errors;
  };
  const mocks: MockLink.MockedResponse[] = [
    {
      request: { query: MyFeedLinksDocument },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: () => ({ data: { myFeedLinks: state.links } }),
    },
    {
      request: { query: MyAccessTokensDocument },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: () => ({ data: { myAccessTokens: state.tokens } }),
    },
    {
      request: { query: CreateFeedLinkDocument, variables: () => true },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: (v: { scope: ScopeSpec }) => {
        state.created.push(v);
        const errors = refused();
        if (errors) return { errors };
        const name = v.scope.kind === 'channel' ? 'Metals Pro' : v.scope.kind === 'topic' ? 'Oil' : null;
        const added = feedLink(state.links.length + 1, { ...v.scope, name });
        state.links = [...state.links, added];
        return { data: { createFeedLink: { __typename: 'CreatedFeedLink', link: added, url: FEED_URL } } };
      },
    },
    {
      request: { query: CreateAccessTokenDocument, variables: () => true },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: (v: { name: string }) => {
        state.created.push(v);
        const errors = refused();
        if (errors) return { errors };
        const added = accessToken(state.tokens.length + 1, v.name);
        state.tokens = [...state.tokens, added];
        return { data: { createAccessToken: { __typename: 'CreatedAccessToken', token: added, secret: TOKEN_SECRET } } };
      },
    },
    {
      request: { query: ChannelsScreenDocument },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: {
        data: {
          allChannels: [channel({ _id: READER_IDS.oilChannel, name: 'Oil Weekly' }), channel({ _id: METALS_PRO, name: 'Metals Pro' })],
        },
      },
    },
    ...revokeMocks(state),
    treeMock(TREE),
  ];
  return { state, mocks };
}

function open(mocks: MockLink.MockedResponse[]) {
  return renderInRouter(
    <>
      <FeedLinks />
      <AccessTokens />
    </>,
    mocks,
  );
}

const feedLinks = () => screen.getByRole('table', { name: 'Your feed links' });
const accessTokens = () => screen.getByRole('table', { name: 'Your access tokens' });

describe('Feeds and access tokens', () => {
  it('lists the feed links and tokens: what each follows or its name, created and last used', async () => {
    const { mocks } = server(
      [
        feedLink(1, { kind: 'all' }, LAST_USED_AT),
        feedLink(2, { kind: 'channel', id: METALS_PRO, name: 'Metals Pro' }),
        feedLink(3, { kind: 'topic', id: READER_IDS.energy, name: 'Copper' }),
        feedLink(4, { kind: 'desk', id: READER_IDS.oilDesk, name: null }),
        feedLink(5, { kind: 'contributor', id: READER_IDS.chris, name: 'Chris Analyst' }),
      ],
      [accessToken(1, 'My assistant', LAST_USED_AT)],
    );
    open(mocks);
    await within(await screen.findByRole('table', { name: 'Your feed links' })).findByText('All my subscriptions');
    expect(tableCells(feedLinks())).toEqual([
      ['Follows', 'Created', 'Last used', 'Actions'],
      ['All my subscriptions', '05 Mar 2026 14:05', '06 Mar 2026 09:30', 'Revoke'],
      ['Channel: Metals Pro', '05 Mar 2026 14:05', 'Never', 'Revoke'],
      ['Topic: Copper (and its sub-topics)', '05 Mar 2026 14:05', 'Never', 'Revoke'],
      ['Desk: (deleted)', '05 Mar 2026 14:05', 'Never', 'Revoke'],
      ['Contributor: Chris Analyst', '05 Mar 2026 14:05', 'Never', 'Revoke'],
    ]);
    expect(
      within(feedLinks()).getByRole('button', { name: 'Revoke the feed link for Channel: Metals Pro, created 05 Mar 2026 14:05' }),
    ).toBeInTheDocument();
    await within(await screen.findByRole('table', { name: 'Your access tokens' })).findByText('My assistant');
    expect(tableCells(accessTokens())).toEqual([
      ['Name', 'Created', 'Last used', 'Actions'],
      ['My assistant', '05 Mar 2026 14:05', '06 Mar 2026 09:30', 'Revoke'],
    ]);
    expect(within(accessTokens()).getByRole('button', { name: 'Revoke the access token My assistant' })).toBeInTheDocument();
    // Never a secret in the lists.
    expect(screen.queryByRole('textbox', { name: 'Feed address' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Access token' })).not.toBeInTheDocument();
  });

  it('says when there are none yet', async () => {
    const { mocks } = server();
    open(mocks);
    expect(await screen.findByText('No feed links yet')).toBeInTheDocument();
    expect(await screen.findByText('No access tokens yet')).toBeInTheDocument();
  });

  it('creates a feed link for a channel and shows its address once, until Done', async () => {
    const user = userEvent.setup();
    const { state, mocks } = server();
    open(mocks);
    await screen.findByText('No feed links yet');
    expect(screen.queryByLabelText('Channel')).not.toBeInTheDocument();

    // Choosing a channel asks for one: the second select lists the channels directory's channels.
    await user.selectOptions(screen.getByLabelText('Follows'), 'channel');
    const channelSelect = await screen.findByLabelText('Channel');
    await waitFor(() => expect(within(channelSelect).getByRole('option', { name: 'Metals Pro' })).toBeInTheDocument());
    expect(
      within(channelSelect)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a channel', 'Metals Pro', 'Oil Weekly']);
    await user.click(screen.getByRole('button', { name: 'Create feed link' }));
    expect(await screen.findByText(REQUIRED_TEXT)).toBeInTheDocument();
    expect(channelSelect).toHaveAttribute('aria-invalid', 'true');
    expect(state.created).toEqual([]);

    await user.selectOptions(channelSelect, METALS_PRO);
    await user.click(screen.getByRole('button', { name: 'Create feed link' }));

    const address = await screen.findByRole('textbox', { name: 'Feed address' });
    expect(state.created).toEqual([{ scope: { kind: 'channel', id: METALS_PRO } }]);
    expect(address).toHaveValue(FEED_URL);
    expect(address).toHaveAttribute('readonly');
    expect(address).toHaveAccessibleDescription(FEED_SHOWN_ONCE);
    expect(address).toHaveFocus();
    expect(screen.getByText('Follows: Channel: Metals Pro')).toBeInTheDocument();
    // The list is read again; the form starts over.
    await waitFor(() => expect(tableCells(feedLinks())[1][0]).toBe('Channel: Metals Pro'));
    expect(screen.getByLabelText('Follows')).toHaveValue('all');
    expect(screen.queryByLabelText('Channel')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy the feed address' }));
    expect(await screen.findByText(COPIED_TEXT)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(FEED_URL);

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('textbox', { name: 'Feed address' })).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue(FEED_URL)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create feed link' })).toHaveFocus();
  });

  it('creates a feed link for all the subscriptions, and for a topic with the topics above it', async () => {
    const user = userEvent.setup();
    const { state, mocks } = server();
    open(mocks);
    await screen.findByText('No feed links yet');
    await user.click(screen.getByRole('button', { name: 'Create feed link' }));
    expect(await screen.findByRole('textbox', { name: 'Feed address' })).toHaveValue(FEED_URL);
    expect(state.created).toEqual([{ scope: { kind: 'all' } }]);
    await user.click(screen.getByRole('button', { name: 'Done' }));

    await user.selectOptions(screen.getByLabelText('Follows'), 'topic');
    const topicSelect = await screen.findByLabelText('Topic');
    await waitFor(() => expect(within(topicSelect).getAllByRole('option')).toHaveLength(5));
    expect(
      within(topicSelect)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a topic', 'Energy', 'Energy › Oil', 'Energy › Oil › Crude', 'Metals']);
    await user.selectOptions(topicSelect, 'Energy › Oil');
    await user.click(screen.getByRole('button', { name: 'Create feed link' }));
    await screen.findByText('Follows: Topic: Oil (and its sub-topics)');
    expect(state.created[1]).toEqual({ scope: { kind: 'topic', id: '65c000000000000000000021' } });
  });

  it("shows the server's refusals: on the item chosen, or the limit in an alert", async () => {
    const user = userEvent.setup();
    const { state, mocks } = server();
    open(mocks);
    await screen.findByText('No feed links yet');
    await user.selectOptions(screen.getByLabelText('Follows'), 'channel');
    const channelSelect = await screen.findByLabelText('Channel');
    await waitFor(() => expect(within(channelSelect).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(channelSelect, METALS_PRO);
    state.refuse = [invalid({ id: 'This channel, topic, desk or contributor does not exist.' })];
    await user.click(screen.getByRole('button', { name: 'Create feed link' }));
    expect(await screen.findByText('This channel, topic, desk or contributor does not exist.')).toBeInTheDocument();
    expect(channelSelect).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('textbox', { name: 'Feed address' })).not.toBeInTheDocument();

    state.refuse = [new GraphQLError('You already have 20 feed links: revoke one first.', { extensions: { code: 'CONFLICT' } })];
    await user.selectOptions(screen.getByLabelText('Follows'), 'all');
    await user.click(screen.getByRole('button', { name: 'Create feed link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('CONFLICT::You already have 20 feed links: revoke one first.');
  });

  it('revokes a feed link after a confirmation', async () => {
    const user = userEvent.setup();
    const { state, mocks } = server([feedLink(1, { kind: 'all' }), feedLink(2, { kind: 'channel', id: METALS_PRO, name: 'Metals Pro' })]);
    open(mocks);
    await within(await screen.findByRole('table', { name: 'Your feed links' })).findByText('Channel: Metals Pro');
    const revoke = () =>
      within(feedLinks()).getByRole('button', { name: 'Revoke the feed link for Channel: Metals Pro, created 05 Mar 2026 14:05' });

    // Cancel changes nothing.
    await user.click(revoke());
    let dialog = within(await screen.findByRole('alertdialog', { name: 'Revoke this feed link?' }));
    expect(dialog.getByText(/Channel: Metals Pro: its address stops working at once/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(state.revoked).toEqual([]);

    await user.click(revoke());
    dialog = within(await screen.findByRole('alertdialog', { name: 'Revoke this feed link?' }));
    await user.click(dialog.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(within(feedLinks()).queryByText('Channel: Metals Pro')).not.toBeInTheDocument());
    expect(state.revoked).toEqual(['fl2']);
    expect(within(feedLinks()).getByText('All my subscriptions')).toBeInTheDocument();
    expect(await screen.findByText('The feed link has been revoked.')).toBeInTheDocument();
  });

  it('creates an access token and shows its secret once; a copy the browser refuses says so', async () => {
    const user = userEvent.setup();
    const { state, mocks } = server();
    open(mocks);
    await screen.findByText('No access tokens yet');

    // A name is required.
    await user.click(screen.getByRole('button', { name: 'Create access token' }));
    const name = screen.getByLabelText('Token name');
    expect(await screen.findByText(REQUIRED_TEXT)).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAttribute('maxlength', '100');

    await user.type(name, '  Claude desktop {Enter}');
    const secret = await screen.findByRole('textbox', { name: 'Access token' });
    expect(state.created).toEqual([{ name: 'Claude desktop' }]);
    expect(secret).toHaveValue(TOKEN_SECRET);
    expect(secret).toHaveAccessibleDescription(TOKEN_SHOWN_ONCE);
    expect(secret).toHaveFocus();
    expect(name).toHaveValue('');
    await waitFor(() => expect(tableCells(accessTokens())[1]).toEqual(['Claude desktop', '05 Mar 2026 14:05', 'Never', 'Revoke']));

    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('Denied'));
    await user.click(screen.getByRole('button', { name: 'Copy the access token' }));
    expect(await screen.findByText(/It could not be copied\. Select it and copy it yourself/)).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(TOKEN_SECRET);
    expect(secret).toHaveFocus();
    writeText.mockRestore();

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(TOKEN_SECRET)).not.toBeInTheDocument();
  });

  it("shows the server's message on the token name, and the limit in an alert", async () => {
    const user = userEvent.setup();
    const { state, mocks } = server();
    open(mocks);
    await screen.findByText('No access tokens yet');
    state.refuse = [invalid({ name: 'You already have a token with this name.' })];
    await user.type(screen.getByLabelText('Token name'), 'Scripts');
    await user.click(screen.getByRole('button', { name: 'Create access token' }));
    expect(await screen.findByText('You already have a token with this name.')).toBeInTheDocument();
    expect(screen.getByLabelText('Token name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Token name')).toHaveAccessibleDescription('You already have a token with this name.');
    expect(screen.getByLabelText('Token name')).toHaveValue('Scripts');
    // Typing again clears it.
    await user.type(screen.getByLabelText('Token name'), ' 2');
    expect(screen.queryByText('You already have a token with this name.')).not.toBeInTheDocument();

    state.refuse = [new GraphQLError('You already have 10 access tokens: revoke one first.', { extensions: { code: 'CONFLICT' } })];
    await user.click(screen.getByRole('button', { name: 'Create access token' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('CONFLICT::You already have 10 access tokens: revoke one first.');
    expect(screen.queryByRole('textbox', { name: 'Access token' })).not.toBeInTheDocument();
  });

  it('revokes an access token after a confirmation', async () => {
    const user = userEvent.setup();
    const { state, mocks } = server([], [accessToken(1, 'Scripts'), accessToken(2, 'Claude desktop')]);
    open(mocks);
    await within(await screen.findByRole('table', { name: 'Your access tokens' })).findByText('Scripts');
    await user.click(within(accessTokens()).getByRole('button', { name: 'Revoke the access token Scripts' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Revoke this access token?' }));
    await user.click(dialog.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(within(accessTokens()).queryByText('Scripts')).not.toBeInTheDocument());
    expect(state.revoked).toEqual(['at1']);
    expect(await screen.findByText('The access token Scripts has been revoked.')).toBeInTheDocument();
  });
});

describe('The Subscriptions page', () => {
  it("has the sections 'Feeds' and 'Access tokens' under the page's heading", async () => {
    const { mocks } = server([feedLink(1, { kind: 'all' })], [accessToken(1, 'Scripts')]);
    const user = testUser('Subscriber');
    const answer = (query: MockLink.MockedResponse['request']['query'], data: Record<string, unknown>): MockLink.MockedResponse => ({
      request: { query, variables: () => true },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: { data },
    });
    // A seat of the reader's firm and an article from it (an empty page would draw a large icon).
    const seat = {
      __typename: 'ReaderSeat',
      firmSubscriptionId: '67e000000000000000000001',
      firmId: '67f000000000000000000001',
      firmName: 'Acme Bank',
      channelId: METALS_PRO,
      channelName: 'Metals Pro',
      startsAt: MARCH_5,
      cancelAt: null,
      assignedAt: MARCH_5,
      isActive: true,
      isFullArticleContent: true,
    };
    renderApp({
      path: '/subscriptions',
      user,
      mocks: [
        ...mocks,
        answer(SubscriptionsScreenDocument, { me: { __typename: 'User', _id: user._id, channelSubscriptions: [], firmSeats: [seat] } }),
        answer(SubscriptionArticlesDocument, { getArticles: { __typename: 'ReaderArticlePage', articles: cards(1), hasMore: false } }),
        answer(MyInvoicesDocument, { myInvoices: [] }),
        answer(ReadingStatementDocument, { myReadingStatement: [] }),
      ],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your subscriptions' })).toBeInTheDocument();
    const feeds = within(await screen.findByRole('region', { name: 'Feeds' }));
    expect(feeds.getByRole('heading', { level: 2, name: 'Feeds' })).toBeInTheDocument();
    expect(feeds.getByRole('heading', { level: 3, name: 'New feed link' })).toBeInTheDocument();
    expect(await feeds.findByText('All my subscriptions', { selector: 'td' })).toBeInTheDocument();
    const tokens = within(screen.getByRole('region', { name: 'Access tokens' }));
    expect(tokens.getByRole('heading', { level: 2, name: 'Access tokens' })).toBeInTheDocument();
    expect(await tokens.findByText('Scripts')).toBeInTheDocument();
    expect(tokens.getByText(/through the MCP server at/)).toHaveTextContent(`${window.location.origin}/mcp`);
    expect(await screen.findByRole('list', { name: 'Articles from your subscriptions' })).toBeInTheDocument();
  });
});
