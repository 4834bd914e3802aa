//! Article page /browse/article/{_id}/{campaignIdAndType?} (spec 3 §2 'Article page', spec 2 §1).
//! The title, summary, published-by line, its topics (links to their pages, where readers follow
//! them), print and share buttons; the full html for readers who
//! may read it (watermarked, copy blocked where the article says so), else the channel's cover
//! card and the premium or locked panel; the disclaimer unless the channel hides it; and the
//! sidebar. An id that is not an ObjectId shows 'Article not found' without a call; the server's
//! ARTICLE_NOT_FOUND sends the reader to For you. Each page view is counted once.
import { gql } from '@apollo/client';
import { PublicationTimes } from '../common/PublicationTimes';
import { useQuery } from '@apollo/client/react';
import { lazy, Suspense, useState } from 'react';
import { Link, Navigate, useHref, useParams } from 'react-router';
import { Button } from '../../../components/Button';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { formatDateTime } from '../../../lib/dates';
import { formatError } from '../../../lib/errors';
import { useSession } from '../../../lib/session';
import { useTopicWording } from '../../../lib/topicWording';
import { ChannelCard } from '../common/ChannelCard';
import { articlePath, imageUrl, isObjectId, publisherPath } from '../common/channelText';
import { TopicChips } from '../common/TagChips';
import { BrowseLayout, LoadErrorState, NotFoundState } from '../browse/BrowseLayout';
import { FOR_YOU_PATH } from '../browse/paths';
import { LockedPanel, PremiumPanel } from './AccessPanels';
import { ArticleBody } from './ArticleBody';
import { useChartBlock } from './ArticleChart';
import { ArticleSidebar } from './ArticleSidebar';
import { Disclaimer } from './Disclaimer';
import { Disclosures } from './Disclosures';
import { usePromotionalContentBlock } from './PromotionalContent';
import { useArticleView } from './useArticleView';
import { ArticlePageDocument, type ArticlePageQuery } from './__generated__/ArticlePage.generated';
import './article.css';

const ShareDialog = lazy(() => import('./ShareDialog'));

type Article = ArticlePageQuery['findPublishedArticleById'];

export default function ArticlePage() {
  const { id, campaignIdAndType } = useParams();
  if (!isObjectId(id)) return <ArticleNotFound />;
  return <ArticleScreen key={id} id={id} campaign={campaignIdAndType} />;
}

function ArticleNotFound() {
  return (
    <NotFoundState
      title="Article not found"
      description="The link may be incomplete or out of date."
      backTo={FOR_YOU_PATH}
      backText="Return to For you"
    />
  );
}

/** Spec 3 §8: a server error naming ARTICLE_NOT_FOUND (in its code or its text) sends the reader to For you. */
function isArticleNotFound(error: unknown): boolean {
  return !!error && formatError(error).includes('ARTICLE_NOT_FOUND');
}

function ArticleScreen({ id, campaign }: { id: string; campaign?: string }) {
  const { data, loading, error, refetch } = useQuery(ArticlePageDocument, { variables: { id } });
  const article = data?.findPublishedArticleById;
  useArticleView(article ? article._id : null, 'article', campaign);

  if (!article) {
    if (loading) return <LoadingBlock label="Loading the article" />;
    if (isArticleNotFound(error)) return <Navigate to={FOR_YOU_PATH} replace />;
    return <LoadErrorState title="The article could not be loaded" error={error} onRetry={() => void refetch()} />;
  }
  return <ArticleView article={article} />;
}

function ArticleView({ article }: { article: Article }) {
  const user = useSession();
  const channel = article.premiumChannelDetails;
  const showDisclaimer = !channel?.hideDisclaimer;
  const promotionBlock = usePromotionalContentBlock(article.embeddedPromotionalContent, article._id);
  const chartBlock = useChartBlock();
  const topics = useTopicWording();

  return (
    <div className="insights-article-page">
      <Page title={article.title}>
        <div className="insights-article-head">
          {article.summary && <p className="insights-article-summary">{article.summary}</p>}
          <Bylines article={article} />
          <TopicChips topics={article.categories} label={`Article ${topics.many}`} />
          <ArticleActions article={article} />
        </div>
        <BrowseLayout
          className="insights-article-layout"
          sidebarLabel="About this article"
          sidebar={
            <ArticleSidebar
              articleId={article._id}
              // A reader of the teaser has the channel's cover card in the content already.
              channel={article.canSeeFullVersion ? channel : null}
              recentChannel={channel?.name ?? article.premiumChannel?.name}
              deskEmail={article.deskEmail}
              contributors={article.contributors}
              recentArticles={article.recentChannelArticles.filter((a) => a._id !== article._id)}
              tags={article.tags}
              promotion={article.randomisedPromotionalContent}
            />
          }
        >
          {article.canSeeFullVersion && article.html != null ? (
            <ArticleBody
              html={article.html}
              watermark={article.showWatermark ? user.email : null}
              blockCopy={article.blockCopy}
              blocks={[promotionBlock, chartBlock]}
              pageTexts={article.pageTexts}
            />
          ) : (
            <div className="insights-article-teaser">
              {channel && <ChannelCover channel={channel} />}
              {article.isLocked ? (
                <LockedPanel deskEmail={article.deskEmail} />
              ) : (
                <PremiumPanel articleId={article._id} channelName={channel?.name ?? article.premiumChannel?.name} />
              )}
            </div>
          )}
          {showDisclaimer && <Disclaimer deskEmail={article.deskEmail} />}
          <Disclosures disclosures={article.disclosures} />
        </BrowseLayout>
      </Page>
    </div>
  );
}

/** The channel's cover image over its card, for a reader who cannot read the article yet. */
function ChannelCover({ channel }: { channel: NonNullable<Article['premiumChannelDetails']> }) {
  const cover = imageUrl(channel.coverImage);
  return (
    <div className="insights-article-cover">
      {cover && <img className="insights-article-cover-image" src={cover} alt="" />}
      <ChannelCard channel={channel} headingLevel={2} />
    </div>
  );
}

function PublishedBy({ article }: { article: Article }) {
  const publisher = article.publishedBy;
  return (
    <p className="insights-article-byline">
      {publisher && (
        <>
          Published by <Link to={publisherPath(publisher)}>{publisher.name}</Link>
          <span aria-hidden> · </span>
        </>
      )}
      <time dateTime={article.publishDate}>{formatDateTime(article.publishDate)}</time>
    </p>
  );
}

function Bylines({ article }: { article: Article }) {
  return (
    <>
      <PublishedBy article={article} />
      <PublicationTimes article={article} />
    </>
  );
}

function ArticleActions({ article }: { article: Article }) {
  const [shareOpen, setShareOpen] = useState(false);
  // The dialog's code is fetched on the first open only; then it stays mounted to animate closing.
  const [shareLoaded, setShareLoaded] = useState(false);
  // The article's own address, without the campaign segment, so a shared link is not attributed
  // to the campaign that brought this reader.
  const href = useHref(articlePath(article._id));
  const url = new URL(href, window.location.origin).href;

  const openShare = () => {
    setShareLoaded(true);
    setShareOpen(true);
  };

  return (
    <div className="insights-article-actions">
      <Button icon="print" text="Print" variant="outlined" onClick={() => window.print()} />
      <Button icon="share" text="Share" variant="outlined" onClick={openShare} />
      {shareLoaded && (
        <Suspense fallback={null}>
          <ShareDialog isOpen={shareOpen} onClose={() => setShareOpen(false)} title={article.title} url={url} />
        </Suspense>
      )}
    </div>
  );
}

export const ARTICLE_PAGE_QUERY = gql`
  query ArticlePage($id: ID!) {
    findPublishedArticleById(id: $id) {
      _id
      title
      summary
      html
      pageTexts {
        fileName
        page
        text
      }
      publishDate
      firstPublishedAt
      updatedAt
      disclosures {
        scopeType
        scopeName
        version
        html
      }
      publishedBy {
        _id
        name
        type
      }
      canSeeFullVersion
      isLocked
      isPremium
      showWatermark
      blockCopy
      deskEmail
      premiumChannel {
        _id
        name
      }
      premiumChannelDetails {
        _id
        hideDisclaimer
        ...ChannelCard_channel
      }
      contributors {
        _id
        name
        position
        phone
        hasProfilePicture
      }
      categories {
        _id
        name
      }
      tags {
        _id
        name
      }
      recentChannelArticles {
        _id
        title
        publishDate
      }
      randomisedPromotionalContent {
        _id
        name
        link
        sidebarImage
      }
      embeddedPromotionalContent {
        ...EmbeddedPromotion_card
      }
    }
  }
`;
