import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { channelFilterSearch, readChannelFilter } from './Channels';
import { changedChannel, channel, READER_IDS, readerCard } from './testData';
import { RequestChannelAccessDocument } from './common/__generated__/ChannelCardActions.generated';
import { ChannelsScreenDocument } from './__generated__/Channels.generated';

const CHANNELS = [
  channel(),
  channel({ _id: READER_IDS.gasChannel, name: 'Gas Daily', type: 'premium', price: '19.50' }),
  channel({ _id: READER_IDS.newsChannel, name: 'Energy News', type: 'freeOpen', price: null }),
  channel({ _id: READER_IDS.clubChannel, name: 'Analyst Club', type: 'freeClosed', price: null }),
];

function channelsMock(channels = CHANNELS): MockLink.MockedResponse {
  return {
    request: { query: ChannelsScreenDocument },
    result: { data: { allChannels: channels } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

function open(path: string, mocks = [channelsMock()], width?: number) {
  return renderApp({ path, user: testUser('Subscriber'), mocks, width });
}

const names = () =>
  within(screen.getByRole('list', { name: 'Channels' }))
    .getAllByRole('article')
    .map((a) => within(a).getByRole('heading').textContent);
const chip = (name: string) => within(screen.getByRole('group', { name: 'Channel type' })).getByRole('button', { name });

describe('Channels directory', () => {
  it('lists every channel with its subscribe action', async () => {
    open('/channels');
    expect(await screen.findByRole('heading', { name: 'Find channels and subscribe', level: 1 })).toBeInTheDocument();
    await screen.findByRole('list', { name: 'Channels' });
    expect(names()).toEqual(['Oil Weekly', 'Gas Daily', 'Energy News', 'Analyst Club']);
    expect(chip('All channels')).toHaveAttribute('aria-pressed', 'true');
    const club = within(screen.getByRole('article', { name: 'Analyst Club' }));
    expect(club.getByRole('button', { name: 'Request access' })).toBeEnabled();
    const news = within(screen.getByRole('article', { name: 'Energy News' }));
    expect(news.getByRole('button', { name: 'Subscribe for free' })).toBeEnabled();
  });

  it('changes a card at once when the reader asks for access', async () => {
    const club = CHANNELS[3];
    const answer = {
      requestFreeClosedSubscription: {
        __typename: 'ChannelSubscription',
        channelId: club._id,
        channel: changedChannel(club, readerCard({ action: 'AccessPending' })),
      },
    };
    open('/channels', [
      channelsMock(),
      { request: { query: RequestChannelAccessDocument, variables: { channelId: club._id } }, result: { data: answer } },
    ]);
    await screen.findByRole('list', { name: 'Channels' });
    const card = within(screen.getByRole('article', { name: 'Analyst Club' }));
    await userEvent.click(card.getByRole('button', { name: 'Request access' }));
    await waitFor(() => expect(card.getByRole('button', { name: 'Access request pending' })).toBeDisabled());
    expect(await screen.findByText(/Your request to access Analyst Club has been sent\./)).toBeInTheDocument();
    // The other cards keep their offers.
    expect(within(screen.getByRole('article', { name: 'Energy News' })).getByRole('button', { name: 'Subscribe for free' })).toBeEnabled();
  });

  it('presets Premium from ?premium', async () => {
    open('/channels?premium');
    await screen.findByRole('list', { name: 'Channels' });
    expect(chip('Premium')).toHaveAttribute('aria-pressed', 'true');
    expect(names()).toEqual(['Oil Weekly', 'Gas Daily']);
  });

  it('presets Free from ?free, also at /browse/channel', async () => {
    open('/browse/channel?free');
    await screen.findByRole('list', { name: 'Channels' });
    expect(chip('Free')).toHaveAttribute('aria-pressed', 'true');
    expect(names()).toEqual(['Energy News', 'Analyst Club']);
  });

  it('writes the chosen chip back to the address', async () => {
    const { router } = open('/channels');
    await screen.findByRole('list', { name: 'Channels' });
    await userEvent.click(chip('Free'));
    expect(router.state.location.search).toBe('?free');
    expect(names()).toEqual(['Energy News', 'Analyst Club']);
    await userEvent.click(chip('Premium'));
    expect(router.state.location.search).toBe('?premium');
    await userEvent.click(chip('All channels'));
    expect(router.state.location.search).toBe('');
    expect(names()).toHaveLength(4);
  });

  it('shows an empty state', async () => {
    open('/channels?free', [channelsMock(CHANNELS.slice(0, 2))]);
    expect(await screen.findByText('There are no free channels yet')).toBeInTheDocument();
  });

  it('works at phone width', async () => {
    open('/channels', [channelsMock()], 360);
    await screen.findByRole('list', { name: 'Channels' });
    expect(names()).toHaveLength(4);
  });
});

describe('channel filter in the address', () => {
  it('reads and writes ?premium and ?free', () => {
    expect(readChannelFilter(new URLSearchParams('premium'))).toBe('premium');
    expect(readChannelFilter(new URLSearchParams('free=true'))).toBe('free');
    expect(readChannelFilter(new URLSearchParams('free=false'))).toBe('all');
    expect(readChannelFilter(new URLSearchParams(''))).toBe('all');
    expect(channelFilterSearch('premium')).toBe('?premium');
    expect(channelFilterSearch('all')).toBe('');
  });
});
