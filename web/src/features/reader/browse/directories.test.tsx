import type { MockLink } from '@apollo/client/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { cards, READER_IDS } from '../testData';
import { BrowseArchiveMonthsDocument } from './__generated__/ArchiveDirectory.generated';
import { BrowseArticlesDocument } from './__generated__/ArticleFeed.generated';
import { BrowseContributorsDocument } from './__generated__/ContributorDirectory.generated';
import { BrowseContributorDocument } from './__generated__/ContributorPage.generated';
import { BrowseDesksDocument } from './__generated__/DeskDirectory.generated';
import { BrowseDeskDocument } from './__generated__/DeskPage.generated';
import { BrowseTagsDocument } from './__generated__/TagDirectory.generated';
import { BrowseTagDocument } from './__generated__/TagPage.generated';
import { feedMock, month } from './testData';

const READER = testUser('Subscriber');
const TAG_ID = '65f000000000000000000001';

function open(path: string, mocks: MockLink.MockedResponse[]) {
  return renderApp({ path, user: READER, mocks });
}

function answer(
  query: MockLink.MockedResponse['request']['query'],
  data: Record<string, unknown>,
  variables?: Record<string, unknown>,
): MockLink.MockedResponse {
  return { request: { query, variables }, result: { data }, maxUsageCount: Number.POSITIVE_INFINITY };
}

const deskRecord = {
  __typename: 'Desk',
  _id: READER_IDS.oilDesk,
  name: 'Oil desk',
  description: 'Crude and products.',
  email: 'oil@example.com',
  contributors: [{ __typename: 'UserSummary', _id: READER_IDS.chris, name: 'Chris Analyst' }],
  channels: [{ __typename: 'DeskChannel', _id: READER_IDS.oilChannel, name: 'Oil Weekly' }],
};

const contributorRecord = {
  __typename: 'Contributor',
  _id: READER_IDS.chris,
  name: 'Chris Analyst',
  position: 'Oil analyst',
  phone: '+44 20 1234 5678',
  hasProfilePicture: false,
  channels: [{ __typename: 'ArticleChannel', _id: READER_IDS.oilChannel, name: 'Oil Weekly' }],
  desks: [{ __typename: 'DeskSummary', _id: READER_IDS.oilDesk, name: 'Oil desk' }],
};

beforeAll(async () => {
  await Promise.all([
    import('./DeskDirectory'),
    import('./DeskPage'),
    import('./ContributorDirectory'),
    import('./ContributorPage'),
    import('./TagDirectory'),
    import('./TagPage'),
    import('./ArchiveDirectory'),
    import('./ArchivePage'),
  ]);
});

describe('desks', () => {
  it('lists every desk with its email and a link to its page', async () => {
    open('/desk', [
      answer(BrowseDesksDocument, {
        desks: [{ __typename: 'Desk', _id: READER_IDS.oilDesk, name: 'Oil desk', description: null, email: 'oil@example.com' }],
      }),
    ]);
    const list = within(await screen.findByRole('list', { name: 'Desks' }));
    expect(list.getByRole('link', { name: 'Oil desk' })).toHaveAttribute('href', `/desk/${READER_IDS.oilDesk}`);
    expect(list.getByRole('link', { name: 'oil@example.com' })).toHaveAttribute('href', 'mailto:oil@example.com');
  });

  it('says when there are no desks', async () => {
    open('/desk', [answer(BrowseDesksDocument, { desks: [] })]);
    expect(await screen.findByRole('heading', { name: 'There are no desks yet.' })).toBeInTheDocument();
  });

  it("shows a desk's email, contributors, channels and latest articles", async () => {
    open(`/desk/${READER_IDS.oilDesk}`, [
      answer(BrowseDeskDocument, { findDeskById: deskRecord }, { id: READER_IDS.oilDesk }),
      feedMock({ deskId: READER_IDS.oilDesk }, { articles: cards(3) }),
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil desk' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'oil@example.com' })).toHaveAttribute('href', 'mailto:oil@example.com');
    const side = within(screen.getByRole('complementary', { name: 'About Oil desk' }));
    expect(side.getByRole('link', { name: 'Chris Analyst' })).toHaveAttribute('href', `/contributor/${READER_IDS.chris}`);
    expect(side.getByRole('link', { name: 'Oil Weekly' })).toHaveAttribute('href', `/browse/channel/${READER_IDS.oilChannel}`);
    expect(within(await screen.findByRole('list', { name: 'Latest articles' })).getAllByRole('listitem')).toHaveLength(3);
  });

  it('shows the empty states of a desk without contributors, channels or articles', async () => {
    open(`/desk/${READER_IDS.oilDesk}`, [
      answer(BrowseDeskDocument, { findDeskById: { ...deskRecord, contributors: [], channels: [] } }, { id: READER_IDS.oilDesk }),
      feedMock({ deskId: READER_IDS.oilDesk }, { articles: [] }),
    ]);
    expect(await screen.findByText('This desk has not published any articles yet.')).toBeInTheDocument();
    expect(screen.getByText('This desk has no contributors yet.')).toBeInTheDocument();
    expect(screen.getByText('This desk has no channels.')).toBeInTheDocument();
  });

  it("shows 'Desk not found' for a bad id", async () => {
    open('/desk/oil', []);
    expect(await screen.findByRole('heading', { name: 'Desk not found' })).toBeInTheDocument();
  });
});

describe('contributors', () => {
  it('lists contributors with their position', async () => {
    open('/contributor', [
      answer(BrowseContributorsDocument, {
        contributors: [
          { __typename: 'Contributor', _id: READER_IDS.chris, name: 'Chris Analyst', position: 'Oil analyst', hasProfilePicture: false },
        ],
      }),
    ]);
    const list = within(await screen.findByRole('list', { name: 'Contributors' }));
    expect(list.getByRole('link', { name: 'Chris Analyst' })).toHaveAttribute('href', `/contributor/${READER_IDS.chris}`);
    expect(list.getByText('Oil analyst')).toBeInTheDocument();
  });

  it('says when no contributor has published', async () => {
    open('/contributor', [answer(BrowseContributorsDocument, { contributors: [] })]);
    expect(await screen.findByRole('heading', { name: 'No contributors have published articles yet.' })).toBeInTheDocument();
  });

  it("shows a contributor's photo, position, phone, channels, desks and articles", async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(new Blob(['png'], { type: 'image/png' })));
    // jsdom has no object URLs: defined here, spied on (restoreMocks puts them back).
    URL.createObjectURL ??= () => '';
    URL.revokeObjectURL ??= () => {};
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:photo');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    open(`/contributor/${READER_IDS.chris}`, [
      answer(
        BrowseContributorDocument,
        { findContributorById: { ...contributorRecord, hasProfilePicture: true } },
        { id: READER_IDS.chris },
      ),
      feedMock({ contributorId: READER_IDS.chris }, { articles: [] }),
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Chris Analyst' })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Photo of Chris Analyst' })).toHaveAttribute('src', 'blob:photo');
    expect(fetchSpy).toHaveBeenCalledWith(
      `/contributor-profile-picture/${READER_IDS.chris}`,
      expect.objectContaining({ headers: expect.objectContaining({ authorization: 'Bearer test-access-token' }) }),
    );
    expect(screen.getByText('Oil analyst')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '+44 20 1234 5678' })).toHaveAttribute('href', 'tel:+442012345678');
    const side = within(screen.getByRole('complementary', { name: 'About Chris Analyst' }));
    expect(side.getByRole('link', { name: 'Oil Weekly' })).toBeInTheDocument();
    expect(side.getByRole('link', { name: 'Oil desk' })).toHaveAttribute('href', `/desk/${READER_IDS.oilDesk}`);
    expect(await screen.findByText('This contributor has not published any articles yet.')).toBeInTheDocument();
  });

  it("shows 'Contributor not found' when the server does not know them", async () => {
    open(`/contributor/${READER_IDS.chris}`, [
      {
        request: { query: BrowseContributorDocument, variables: { id: READER_IDS.chris } },
        result: { errors: [{ message: 'Contributor not found', extensions: { code: 'NOT_FOUND' } }] },
      },
    ]);
    expect(await screen.findByRole('heading', { name: 'Contributor not found' })).toBeInTheDocument();
  });
});

describe('tags', () => {
  const tagsParams = (page: number) => ({ params: { page, pageSize: 100, sortField: 'Name', sortDirection: 'Asc' } });
  const tag = (i: number) => ({
    __typename: 'Tag',
    _id: `65f0000000000000000${String(i).padStart(5, '0')}`,
    name: `Tag ${i}`,
    articleCount: i,
  });

  it('lists the tags with their article counts, by page', async () => {
    open('/tag', [
      answer(BrowseTagsDocument, { tags: { __typename: 'TagPage', total: 101, items: [tag(1), tag(2)] } }, tagsParams(1)),
      answer(BrowseTagsDocument, { tags: { __typename: 'TagPage', total: 101, items: [tag(101)] } }, tagsParams(2)),
    ]);
    const list = within(await screen.findByRole('list', { name: 'Tags' }));
    expect(list.getByRole('link', { name: 'Tag 2' })).toHaveAttribute('href', `/tag/${tag(2)._id}`);
    expect(list.getByText('(2)')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'Tag 101' })).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
  });

  it('says when there are no tags', async () => {
    open('/tag', [answer(BrowseTagsDocument, { tags: { __typename: 'TagPage', total: 0, items: [] } }, tagsParams(1))]);
    expect(await screen.findByRole('heading', { name: 'There are no tags yet.' })).toBeInTheDocument();
  });

  it("titles a tag's page 'All articles tagged {name}' and says when it has none", async () => {
    open(`/tag/${TAG_ID}`, [
      answer(BrowseTagDocument, { findTagById: { __typename: 'Tag', _id: TAG_ID, name: 'Brent', description: '' } }, { id: TAG_ID }),
      feedMock({ tagId: TAG_ID }, { articles: [] }),
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: 'All articles tagged Brent' })).toBeInTheDocument();
    expect(await screen.findByText('No articles are tagged Brent yet.')).toBeInTheDocument();
  });

  it("shows 'Tag not found' for a bad id", async () => {
    open('/tag/brent', []);
    expect(await screen.findByRole('heading', { name: 'Tag not found' })).toBeInTheDocument();
  });
});

describe('archives', () => {
  it("lists the months as 'Month YYYY (N)'", async () => {
    open('/archives', [answer(BrowseArchiveMonthsDocument, { getLastMonthsWithArticles: [month(2026, 11, 4), month(2025, 1, 12)] })]);
    const list = within(await screen.findByRole('list', { name: 'Months' }));
    expect(list.getByRole('link', { name: 'November 2026 (4)' })).toHaveAttribute('href', '/archives/2026-11');
    expect(list.getByRole('link', { name: 'January 2025 (12)' })).toHaveAttribute('href', '/archives/2025-01');
  });

  it('says when nothing has been published', async () => {
    open('/archives', [answer(BrowseArchiveMonthsDocument, { getLastMonthsWithArticles: [] })]);
    expect(await screen.findByRole('heading', { name: 'No articles have been published yet.' })).toBeInTheDocument();
  });

  it("lists a month's articles between its first and last millisecond", async () => {
    const filter = { dateFrom: '2026-02-01T00:00:00.000Z', dateTo: '2026-02-28T23:59:59.999Z' };
    open('/archives/2026-02', [feedMock(filter, { articles: cards(2) })]);
    expect(await screen.findByRole('heading', { level: 1, name: 'All articles published in February 2026' })).toBeInTheDocument();
    expect(within(await screen.findByRole('list', { name: 'Articles' })).getAllByRole('listitem')).toHaveLength(2);
  });

  it('says when a month has no articles', async () => {
    const filter = { dateFrom: '2024-02-01T00:00:00.000Z', dateTo: '2024-02-29T23:59:59.999Z' };
    open('/archives/2024-02', [feedMock(filter, { articles: [] })]);
    expect(await screen.findByText('No articles were published in February 2024.')).toBeInTheDocument();
  });

  it.each(['2026-13', 'march', '2026-00'])("shows 'Month not found' for %s without asking the server", async (dateId) => {
    const result = vi.fn();
    open(`/archives/${dateId}`, [{ request: { query: BrowseArticlesDocument, variables: () => true }, result }]);
    expect(await screen.findByRole('heading', { name: 'Month not found' })).toBeInTheDocument();
    expect(result).not.toHaveBeenCalled();
  });
});
