import type { MockLink } from '@apollo/client/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testConfig, testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { allTopics, findTopics, toTopicNodes } from './topicTree';
import { TOPIC_IDS, treeMock, TREE } from './testData';
import { TopicsPageFollowedDocument } from './__generated__/TopicsPage.generated';

const READER = testUser('Subscriber');
const EQUITIES = '65c000000000000000000024';
const EQUITY_ENERGY = '65c000000000000000000025';

/** Energy > Oil > Crude, Metals, and Equities > Energy: two topics named Energy. */
const WIDER_TREE = [...TREE, { _id: EQUITIES, name: 'Equities', children: [{ _id: EQUITY_ENERGY, name: 'Energy' }] }];

function followedMock(ids: string[] = []): MockLink.MockedResponse {
  return {
    request: { query: TopicsPageFollowedDocument },
    result: {
      data: {
        me: {
          __typename: 'User',
          _id: READER._id,
          followedCategories: ids.map((_id) => ({ __typename: 'ArticleTopic', _id, name: 'Followed' })),
        },
      },
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

function open({ tree = WIDER_TREE, followed = [] as string[], path = '/topics-page', premiumChannels = true } = {}) {
  const config = testConfig();
  return renderApp({
    path,
    user: READER,
    mocks: [treeMock(tree), followedMock(followed)],
    config: testConfig({ features: { ...config.features, premiumChannels } }),
  });
}

const tree = async () => within(await screen.findByRole('list', { name: 'Topics' }));
const toggle = (name: string) => screen.getByRole('button', { name: `${name} sub-topics` });

beforeAll(async () => {
  await import('./TopicsPage');
});

describe('topics directory', () => {
  it('lists the top-level topics collapsed, each linking to its page', async () => {
    open();
    const list = await tree();
    expect(list.getAllByRole('listitem')).toHaveLength(3);
    expect(list.getAllByRole('link', { name: 'Energy' })).toHaveLength(1);
    expect(list.getByRole('link', { name: 'Energy' })).toHaveAttribute('href', `/browse/${TOPIC_IDS.energy}`);
    expect(list.getByRole('link', { name: 'Metals' })).toHaveAttribute('href', `/browse/${TOPIC_IDS.metals}`);
    // Sub-topics wait behind their parent's button.
    expect(toggle('Energy')).toHaveAttribute('aria-expanded', 'false');
    expect(list.queryByRole('link', { name: 'Oil' })).not.toBeInTheDocument();
    expect(list.getAllByText('1 sub-topic')).toHaveLength(2);
    // A topic without sub-topics has no button.
    expect(screen.queryByRole('button', { name: 'Metals sub-topics' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('3 top-level topics, 6 in all');
  });

  it('opens and closes a topic’s sub-topics level by level', async () => {
    open();
    await tree();
    await userEvent.click(toggle('Energy'));
    expect(toggle('Energy')).toHaveAttribute('aria-expanded', 'true');
    const energy = screen.getByRole('list', { name: 'Energy sub-topics' });
    expect(toggle('Energy')).toHaveAttribute('aria-controls', energy.id);
    expect(within(energy).getByRole('link', { name: 'Oil' })).toHaveAttribute('href', `/browse/${TOPIC_IDS.oil}`);
    expect(within(energy).queryByRole('link', { name: 'Crude' })).not.toBeInTheDocument();

    await userEvent.click(toggle('Oil'));
    expect(within(screen.getByRole('list', { name: 'Oil sub-topics' })).getByRole('link', { name: 'Crude' })).toHaveAttribute(
      'href',
      `/browse/${TOPIC_IDS.crude}`,
    );

    await userEvent.click(toggle('Energy'));
    expect(toggle('Energy')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('list', { name: 'Energy sub-topics' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Oil' })).not.toBeInTheDocument();
  });

  it('works from the keyboard: Tab reaches the button, Enter and Space open and close', async () => {
    open();
    await tree();
    await userEvent.click(screen.getByRole('searchbox', { name: 'Filter topics' }));
    await userEvent.tab();
    expect(toggle('Energy')).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(toggle('Energy')).toHaveAttribute('aria-expanded', 'true');
    await userEvent.tab();
    expect(screen.getByRole('link', { name: 'Energy' })).toHaveFocus();
    await userEvent.tab();
    expect(toggle('Oil')).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(screen.getByRole('link', { name: 'Crude' })).toBeInTheDocument();
  });

  it('finds nested topics with the filter and shows the path to each', async () => {
    const { router } = open();
    await tree();
    const filter = screen.getByRole('searchbox', { name: 'Filter topics' });
    await userEvent.type(filter, 'crude');
    const found = within(screen.getByRole('list', { name: 'Topics found' }));
    expect(found.getAllByRole('link')).toHaveLength(1);
    expect(found.getByRole('link', { name: 'Crude' })).toHaveAttribute('href', `/browse/${TOPIC_IDS.crude}`);
    expect(found.getByRole('link', { name: 'Crude' })).toHaveAccessibleDescription('in Energy, Oil');
    expect(screen.getByRole('status')).toHaveTextContent("1 topic matches 'crude'");
    expect(router.state.location.search).toBe('?q=crude');

    // Two topics named Energy: the paths tell them apart; their sub-topics are not listed.
    await userEvent.clear(filter);
    await userEvent.type(filter, 'ENERGY');
    const both = within(screen.getByRole('list', { name: 'Topics found' })).getAllByRole('link');
    expect(both.map((l) => l.getAttribute('href'))).toEqual([`/browse/${TOPIC_IDS.energy}`, `/browse/${EQUITY_ENERGY}`]);
    expect(both[1]).toHaveAccessibleDescription('in Equities');
    expect(screen.getByRole('status')).toHaveTextContent("2 topics match 'ENERGY'");

    // Words of the path narrow it.
    await userEvent.type(filter, ' equities');
    expect(within(screen.getByRole('list', { name: 'Topics found' })).getAllByRole('link')).toHaveLength(1);

    await userEvent.clear(filter);
    await userEvent.type(filter, 'zinc');
    expect(screen.getByRole('status')).toHaveTextContent("No topics match 'zinc'.");
    expect(screen.queryByRole('list', { name: 'Topics found' })).not.toBeInTheDocument();

    await userEvent.clear(filter);
    expect(await tree()).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });

  it('starts from the filter in the address', async () => {
    open({ path: '/topics-page?q=oil' });
    const found = within(await screen.findByRole('list', { name: 'Topics found' }));
    expect(found.getByRole('link', { name: 'Oil' })).toHaveAccessibleDescription('in Energy');
    expect(screen.getByRole('searchbox', { name: 'Filter topics' })).toHaveValue('oil');
  });

  it('marks the topics the reader follows', async () => {
    open({ followed: [TOPIC_IDS.oil] });
    await tree();
    await userEvent.click(toggle('Energy'));
    const oil = screen.getByRole('link', { name: 'Oil' }).closest('li')!;
    expect(await within(oil).findByText('Following')).toBeInTheDocument();
    expect(screen.getAllByText('Following')).toHaveLength(1);
  });

  it("says 'categories' when premium channels are off", async () => {
    open({ premiumChannels: false });
    expect(await screen.findByRole('heading', { level: 1, name: 'Categories' })).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Categories' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Filter categories' })).toBeInTheDocument();
  });

  it('says when there are no topics', async () => {
    open({ tree: [] });
    expect(await screen.findByRole('heading', { name: 'There are no topics yet.' })).toBeInTheDocument();
  });
});

describe('findTopics', () => {
  // The test tree has the answer's shape (_id, name, children), without __typename and parent.
  const roots = toTopicNodes(WIDER_TREE as never);

  it('walks every level, parents first', () => {
    expect(allTopics(roots).map((e) => e.topic.name)).toEqual(['Energy', 'Oil', 'Crude', 'Metals', 'Equities', 'Energy']);
  });

  it('needs every word in the path and one in the name', () => {
    expect(findTopics(roots, 'energy oil').map((e) => e.topic.name)).toEqual(['Oil']);
    expect(findTopics(roots, '  ').map((e) => e.topic.name)).toEqual([]);
    expect(findTopics(roots, 'cru').map((e) => e.ancestors.map((a) => a.name))).toEqual([['Energy', 'Oil']]);
  });
});
