//! Marketing article page /browse/marketing-article/{_id}/{campaignIdAndType?} (spec 2 'Marketing
//! article page', spec 3 §8): reached from campaign emails, shown without the app header. The
//! article in full when the reader may read it, else its summary with a link to the article page.
//! Archived or pending articles, and any failure to load, read 'This article is no longer
//! available.' with a way back into the product. Each page view is counted once.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { LinkButton } from '../../../components/LinkButton';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { MessageScreen, Page } from '../../../components/Page';
import { formatDateTime } from '../../../lib/dates';
import { useSession } from '../../../lib/session';
import { articlePath, isObjectId } from '../common/channelText';
import { FOR_YOU_PATH } from '../browse/paths';
import { ArticleBody } from './ArticleBody';
import { useChartBlock } from './ArticleChart';
import { usePromotionalContentBlock } from './PromotionalContent';
import { useArticleView } from './useArticleView';
import { MarketingArticlePageDocument, type MarketingArticlePageQuery } from './__generated__/MarketingArticlePage.generated';
import './article.css';
import { PublicationTimes } from '../common/PublicationTimes';

export const NO_LONGER_AVAILABLE = 'This article is no longer available.';

export default function MarketingArticlePage() {
  const { id, campaignIdAndType } = useParams();
  if (!isObjectId(id)) return <NoLongerAvailable />;
  return <MarketingArticleScreen key={id} id={id} campaign={campaignIdAndType} />;
}

function NoLongerAvailable() {
  return (
    <MessageScreen>
      <EmptyState
        icon="document"
        title={NO_LONGER_AVAILABLE}
        description={<p>This article was archived or unpublished by a contributor.</p>}
        action={<LinkButton to={FOR_YOU_PATH} text="Return to the product" intent="primary" />}
      />
    </MessageScreen>
  );
}

function MarketingArticleScreen({ id, campaign }: { id: string; campaign?: string }) {
  const user = useSession();
  const { data, loading } = useQuery(MarketingArticlePageDocument, { variables: { id } });
  const article = data?.findMarketingArticleById;
  const available = !!article && article.state === 'Published';
  useArticleView(available ? article._id : null, 'marketing-article', campaign);

  if (!article && loading) return <LoadingScreen label="Loading the article" />;
  if (!article || !available) return <NoLongerAvailable />;
  return <MarketingArticleView article={article} watermark={article.showWatermark ? user.email : null} />;
}

function MarketingArticleView({
  article,
  watermark,
}: {
  article: NonNullable<MarketingArticlePageQuery['findMarketingArticleById']>;
  watermark: string | null;
}) {
  const promotionBlock = usePromotionalContentBlock(article.embeddedPromotionalContent, article._id);
  const chartBlock = useChartBlock();
  return (
    <main className="insights-marketing-article">
      <Page title={article.title}>
        <div className="insights-article-head">
          {article.summary && <p className="insights-article-summary">{article.summary}</p>}
          <p className="insights-article-byline">
            {article.publishedBy && <>Published by {article.publishedBy.name} · </>}
            <time dateTime={article.publishDate}>{formatDateTime(article.publishDate)}</time>
          </p>
          <PublicationTimes article={article} />
        </div>
        {article.canSeeFullVersion && article.html != null ? (
          <ArticleBody html={article.html} watermark={watermark} blocks={[promotionBlock, chartBlock]} pageTexts={article.pageTexts} />
        ) : (
          <section className="insights-article-access" aria-label="Read the article">
            <p>
              {article.premiumChannel
                ? `The full article is available to subscribers of ${article.premiumChannel.name}.`
                : 'The full article is available on its article page.'}
            </p>
            <LinkButton to={articlePath(article._id)} text="Go to the article" intent="primary" />
          </section>
        )}
        <p className="insights-marketing-return">
          <LinkButton to={FOR_YOU_PATH} text="Return to the product" />
        </p>
      </Page>
    </main>
  );
}

export const MARKETING_ARTICLE_PAGE_QUERY = gql`
  query MarketingArticlePage($id: ID!) {
    findMarketingArticleById(id: $id) {
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
      state
      canSeeFullVersion
      showWatermark
      publishedBy {
        _id
        name
        type
      }
      premiumChannel {
        _id
        name
      }
      embeddedPromotionalContent {
        ...EmbeddedPromotion_card
      }
    }
  }
`;
