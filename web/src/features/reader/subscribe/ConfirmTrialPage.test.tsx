import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { testConfig, testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { changedChannel, channel, READER_IDS, readerCard } from '../testData';
import { ConfirmTrialPageDocument, RequestTrialDocument } from './__generated__/ConfirmTrialPage.generated';
import { SubscribePageDocument } from './__generated__/SubscribePage.generated';

const ID = READER_IDS.oilChannel;
const PATH = `/subscribe/channel/confirm-trial/${ID}`;

const TERMS = { __typename: 'TrialTerms', version: 3, html: '<p>The trial ends by itself.</p>' } as const;

function pageMock(
  overrides: Partial<ReturnType<typeof channel>> = {},
  policy = { maxDays: 90, termsRequired: true },
): MockLink.MockedResponse {
  return {
    request: { query: ConfirmTrialPageDocument, variables: { id: ID } },
    result: {
      data: {
        channel: { ...channel({ defaultTrialDurationDays: 21 }), state: 'active', ...overrides },
        trialPolicy: { __typename: 'TrialPolicy', ...policy },
        trialTerms: TERMS,
      },
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

/** The subscription page, where the reader lands after asking (and where Cancel may go back to). */
function subscribeMock(card = readerCard()): MockLink.MockedResponse {
  return {
    request: { query: SubscribePageDocument, variables: { id: ID } },
    result: { data: { channel: { ...channel({ readerCard: card }), state: 'active' } } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

function requestMock(calls: { count: number }, errors?: GraphQLError[], acceptedTermsVersion: number | null = 3): MockLink.MockedResponse {
  return {
    request: { query: RequestTrialDocument, variables: { channelId: ID, acceptedTermsVersion } },
    result: () => {
      calls.count += 1;
      if (errors) return { errors };
      const answer = changedChannel(channel(), readerCard({ action: 'TrialPending' }));
      return { data: { requestTrialChannelSubscription: { __typename: 'ChannelSubscription', channelId: ID, channel: answer } } };
    },
  };
}

function open(mocks: MockLink.MockedResponse[], path = PATH, config = testConfig()) {
  return renderApp({ path, user: testUser('Subscriber'), mocks, config });
}

describe('Request your free trial', () => {
  it("explains the channel's trial, asks for it and goes to the subscription page with ?trial", async () => {
    const calls = { count: 0 };
    const { router } = open([pageMock(), requestMock(calls), subscribeMock()]);
    expect(await screen.findByRole('heading', { name: 'Request your free trial', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Try Oil Weekly free for 21 days', level: 2 })).toBeInTheDocument();
    expect(screen.getByText(/read every premium article of Oil Weekly for 21 days/)).toBeInTheDocument();

    // The terms first: the request waits for them to be accepted, and carries their version.
    expect(screen.getByRole('region', { name: 'Trial terms' })).toHaveTextContent('The trial ends by itself.');
    expect(screen.getByRole('button', { name: 'Confirm free trial request' })).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have read and accept the trial terms (version 3)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm free trial request' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/subscribe/channel/${ID}`));
    expect(router.state.location.search).toBe('?trial');
    expect(calls.count).toBe(1);
    expect(
      await screen.findByText(/Your request for a free trial of Oil Weekly has been sent and is pending approval\./),
    ).toBeInTheDocument();
  });

  it("offers at most the trial policy's longest trial, and asks for no terms when the policy does not", async () => {
    const calls = { count: 0 };
    const { router } = open([pageMock({}, { maxDays: 10, termsRequired: false }), requestMock(calls, undefined, null), subscribeMock()]);
    expect(await screen.findByRole('heading', { name: 'Try Oil Weekly free for 10 days', level: 2 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm free trial request' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/subscribe/channel/${ID}`));
    expect(calls.count).toBe(1);
  });

  it('uses the configured default when the channel sets no trial days', async () => {
    const config = testConfig();
    config.constants = { ...config.constants, defaultTrialChannelDays: 30 };
    open([pageMock({ defaultTrialDurationDays: null })], PATH, config);
    expect(await screen.findByRole('heading', { name: 'Try Oil Weekly free for 30 days', level: 2 })).toBeInTheDocument();
  });

  it('shows the server message when the request is refused, and stays', async () => {
    const calls = { count: 0 };
    const message = 'You had a trial of Oil Weekly until 3 Mar 2026; a new trial is possible from 3 Mar 2027.';
    const refused = [new GraphQLError(message, { extensions: { code: 'CONFLICT' } })];
    const { router } = open([pageMock(), requestMock(calls, refused)]);
    await userEvent.click(await screen.findByRole('checkbox', { name: /I have read and accept the trial terms/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm free trial request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`CONFLICT::${message}`);
    expect(router.state.location.pathname).toBe(PATH);
    expect(screen.getByRole('button', { name: 'Confirm free trial request' })).toBeEnabled();
  });

  it('goes back on Cancel, without asking', async () => {
    const calls = { count: 0 };
    const { router } = open([subscribeMock(), pageMock(), requestMock(calls)], `/subscribe/channel/${ID}`);
    await userEvent.click(await screen.findByRole('link', { name: 'Request FREE trial now' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/subscribe/channel/${ID}`));
    expect(router.state.historyAction).toBe('POP');
    expect(calls.count).toBe(0);
  });

  it('goes to the subscription page on Cancel when opened directly', async () => {
    const { router } = open([pageMock(), subscribeMock()]);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/subscribe/channel/${ID}`));
  });

  it('offers nothing to confirm while a trial request is pending', async () => {
    open([pageMock({ readerCard: readerCard({ action: 'TrialPending' }) })]);
    expect(await screen.findByText('Your free trial request is pending approval.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirm free trial request' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View pricing' })).toHaveAttribute('href', `/subscribe/channel/${ID}`);
  });

  it("shows 'Channel not found' for an id that is not an ObjectId", async () => {
    open([], '/subscribe/channel/confirm-trial/42');
    expect(await screen.findByRole('heading', { name: 'Channel not found', level: 1 })).toBeInTheDocument();
  });
});
