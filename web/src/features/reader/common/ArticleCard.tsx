//! One article in a reader list (For You, channel page, search, browse pages): channel, title
//! linking to the article page, summary, its topics linking to their pages (where readers follow
//! them), date ('DD MMM YYYY' or 'Today') and publisher ('by' the desk or contributor), with a lock
//! badge when the reader may not read it in full (premium or a locked topic).
import { gql } from '@apollo/client';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge, Card } from '../../../components/Card';
import { articlePath, channelPath, publisherPath } from './channelText';
import { useTopicWording } from '../../../lib/topicWording';
import { formatCardDate } from './readerDates';
import { TopicChips } from './TagChips';
import type { ArticleCard_ArticleFragment } from './__generated__/ArticleCard.generated';
import { publicationText } from './PublicationTimes';
import '../reader.css';

export type ArticleCardArticle = ArticleCard_ArticleFragment;

/** Topics on a card before 'Show all'. */
export const CARD_TOPICS_SHOWN = 3;

export interface ArticleCardProps {
  article: ArticleCardArticle;
  /** Heading level of the title (the page's h1 is the screen title). */
  headingLevel?: 2 | 3 | 4;
  /** Shown instead of the summary (search: the highlighted match). */
  excerpt?: ReactNode;
  /** Hide the channel line (on the channel's own page). */
  hideChannel?: boolean;
  now?: Date;
}

export function ArticleCard({ article, headingLevel = 3, excerpt, hideChannel = false, now }: ArticleCardProps) {
  const titleId = useId();
  const Heading = `h${headingLevel}` as const;
  const channel = article.premiumChannel;
  const date = formatCardDate(article.publishDate, now);
  const topics = useTopicWording();
  return (
    <Card className="insights-reader-card insights-article-card" labelledBy={titleId}>
      <div className="insights-article-card-top">
        {!hideChannel && channel && (
          <Link className="insights-article-card-channel" to={channelPath(channel._id)}>
            {channel.name}
          </Link>
        )}
        <span className="insights-article-card-badges">
          {article.isPinned && <Badge text="Pinned" icon="pin" />}
          {!article.canSeeFullVersion ? (
            <Badge text={article.isLocked ? 'Locked' : 'Premium'} icon="lock" intent="warning" />
          ) : (
            article.isPremiumActive && <Badge text="Premium" intent="primary" />
          )}
        </span>
      </div>
      <Heading id={titleId} className="insights-article-card-title">
        <Link to={articlePath(article._id)}>{article.title}</Link>
      </Heading>
      {excerpt ?? (article.summary ? <p className="insights-article-card-summary">{article.summary}</p> : null)}
      <div className="insights-article-card-foot">
        <TopicChips topics={article.categories} label={topics.Many} limit={CARD_TOPICS_SHOWN} />
        <p className="insights-article-card-meta">
          <time dateTime={article.publishDate} title={publicationText(article) || undefined}>
            {date}
          </time>
          {article.publishedBy && (
            <>
              {/* 'by': the desk or contributor who published it, not one of its topics. */}
              <span aria-hidden> · </span>by <Link to={publisherPath(article.publishedBy)}>{article.publishedBy.name}</Link>
            </>
          )}
        </p>
      </div>
    </Card>
  );
}

export const ARTICLE_CARD_FRAGMENT = gql`
  fragment ArticleCard_article on ArticleCard {
    _id
    title
    summary
    publishDate
    firstPublishedAt
    updatedAt
    publishedBy {
      _id
      name
      type
    }
    premiumChannel {
      _id
      name
      type
    }
    isPremium
    isPremiumActive
    canSeeFullVersion
    isLocked
    isPinned
    tags {
      _id
      name
    }
    categories {
      _id
      name
    }
  }
`;
