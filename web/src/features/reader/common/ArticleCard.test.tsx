import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { articleId, card, cards, READER_IDS, renderInRouter } from '../testData';
import { ArticleCard } from './ArticleCard';
import { ArticleCardList } from './ArticleCardList';
import { TagChips } from './TagChips';

describe('ArticleCard', () => {
  it('links to the article and its channel and shows the date and publisher', () => {
    renderInRouter(<ArticleCard article={card()} />);
    const article = within(screen.getByRole('article', { name: 'Oil outlook' }));
    expect(article.getByRole('link', { name: 'Oil outlook' })).toHaveAttribute('href', `/browse/article/${articleId(1)}`);
    expect(article.getByRole('link', { name: 'Oil Weekly' })).toHaveAttribute('href', `/browse/channel/${READER_IDS.oilChannel}`);
    expect(article.getByRole('link', { name: 'Oil desk' })).toHaveAttribute('href', `/desk/${READER_IDS.oilDesk}`);
    expect(article.getByText('05 Mar 2026')).toBeInTheDocument();
    expect(article.getByText('Prices in the next quarter.')).toBeInTheDocument();
    expect(article.queryByText('Premium')).not.toBeInTheDocument();
  });

  it('links its topics to their pages, apart from the publisher', () => {
    const topic = (n: number, name: string) => ({ __typename: 'ArticleTopic' as const, _id: `65c00000000000000000002${n}`, name });
    renderInRouter(<ArticleCard article={card({ categories: [topic(0, 'Energy'), topic(1, 'Oil')] })} />);
    const article = within(screen.getByRole('article', { name: 'Oil outlook' }));
    const topics = within(article.getByRole('list', { name: 'Topics' }));
    expect(topics.getByRole('link', { name: 'Energy' })).toHaveAttribute('href', `/browse/${READER_IDS.energy}`);
    expect(topics.getByRole('link', { name: 'Oil' })).toHaveAttribute('href', '/browse/65c000000000000000000021');
    // The publisher is a desk, said so, and not among the topics.
    expect(topics.queryByRole('link', { name: 'Oil desk' })).not.toBeInTheDocument();
    expect(article.getByRole('link', { name: 'Oil desk' }).parentElement).toHaveTextContent('05 Mar 2026 · by Oil desk');
  });

  it('shows 3 topics, then all of them', async () => {
    const topics = Array.from({ length: 5 }, (_, i) => ({
      __typename: 'ArticleTopic' as const,
      _id: `65c00000000000000000003${i}`,
      name: `Topic ${i}`,
    }));
    renderInRouter(<ArticleCard article={card({ categories: topics })} />);
    const list = () => within(screen.getByRole('list', { name: 'Topics' }));
    expect(list().getAllByRole('link')).toHaveLength(3);
    await userEvent.click(screen.getByRole('button', { name: 'Show all (5)' }));
    expect(list().getAllByRole('link')).toHaveLength(5);
  });

  it('has no topic list without topics', () => {
    renderInRouter(<ArticleCard article={card()} />);
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it("shows 'Today' for an article published today", () => {
    renderInRouter(<ArticleCard article={card({ publishDate: new Date().toISOString() })} />);
    expect(screen.getByText('Today')).toBeInTheDocument();
  });

  it('shows a lock badge when the reader cannot read it in full', () => {
    renderInRouter(
      <>
        <ArticleCard article={card({ isPremium: true, canSeeFullVersion: false })} />
        <ArticleCard article={card({ _id: articleId(2), title: 'Locked one', isLocked: true, canSeeFullVersion: false })} />
      </>,
    );
    expect(within(screen.getByRole('article', { name: 'Oil outlook' })).getByText('Premium')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Locked one' })).getByText('Locked')).toBeInTheDocument();
  });
});

describe('ArticleCardList', () => {
  it('shows the empty message', () => {
    renderInRouter(<ArticleCardList label="Articles" articles={[]} emptyMessage="Nothing here yet" />);
    expect(screen.getByText('Nothing here yet')).toBeInTheDocument();
  });

  it('shows a spinner while the first page loads', () => {
    renderInRouter(<ArticleCardList label="Articles" articles={[]} loading emptyMessage="Nothing here yet" />);
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(screen.queryByText('Nothing here yet')).not.toBeInTheDocument();
  });

  it('lists the cards and loads more on demand', async () => {
    const calls: number[] = [];
    renderInRouter(<ArticleCardList label="Articles" articles={cards(3)} emptyMessage="None" hasMore onLoadMore={() => calls.push(1)} />);
    expect(within(screen.getByRole('list', { name: 'Articles' })).getAllByRole('article')).toHaveLength(3);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(calls).toHaveLength(1);
  });

  it('pages', async () => {
    const pages: number[] = [];
    renderInRouter(
      <ArticleCardList
        label="Articles"
        articles={cards(2)}
        emptyMessage="None"
        pager={{ page: 1, pageCount: 3, onPage: (p) => pages.push(p) }}
      />,
    );
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(pages).toEqual([2]);
  });
});

describe('TagChips', () => {
  const tags = Array.from({ length: 7 }, (_, i) => ({ _id: `65e00000000000000000000${i}`, name: `Tag ${i}` }));

  it('shows 5 tags, then all of them', async () => {
    renderInRouter(<TagChips tags={tags} />);
    const list = () => within(screen.getByRole('list', { name: 'Tags' }));
    expect(list().getAllByRole('link')).toHaveLength(5);
    expect(list().getByRole('link', { name: 'Tag 0' })).toHaveAttribute('href', `/tag/${tags[0]._id}`);
    await userEvent.click(screen.getByRole('button', { name: 'Show all (7)' }));
    expect(list().getAllByRole('link')).toHaveLength(7);
    await userEvent.click(screen.getByRole('button', { name: 'Show fewer' }));
    expect(list().getAllByRole('link')).toHaveLength(5);
  });

  it('has no toggle for 5 tags or fewer', () => {
    renderInRouter(<TagChips tags={tags.slice(0, 5)} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
