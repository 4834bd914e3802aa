//! The promotion landing page /promotion/{_id} (spec 2 'Promotion pages', spec 3 §2): the
//! promotion page of a promotional content — its sanitised html, shown the way the article page
//! shows an article's — with 'Register interest'. Once registered, the page's success title and
//! message with Continue, which goes back in history, or to For you when the page was opened
//! directly. Content that is unknown, expired (NOT_FOUND) or without a page sends the reader to For you.
//! A registration that fails is only logged (spec 3 §8): the reader sees no error and may try again.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { formatError, hasErrorCode } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { prepareArticleHtml } from './article/articleHtml';
import { LoadErrorState } from './browse/BrowseLayout';
import { FOR_YOU_PATH } from './browse/paths';
import { isObjectId } from './common/channelText';
import {
  PromotionLandingDocument,
  RegisterPromotionInterestDocument,
  type PromotionLandingQuery,
} from './__generated__/PromotionLanding.generated';
import './article/article.css';
import './PromotionLanding.css';

type PromotionPage = NonNullable<PromotionLandingQuery['findPromotionalContentById']['promotionPage']>;

export default function PromotionLanding() {
  const { id } = useParams();
  if (!isObjectId(id)) return <Navigate to={FOR_YOU_PATH} replace />;
  return <Landing key={id} id={id} />;
}

function Landing({ id }: { id: string }) {
  const { data, loading, error, refetch } = useQuery(PromotionLandingDocument, { variables: { id } });
  const content = data?.findPromotionalContentById;

  if (!content) {
    if (loading) return <LoadingBlock label="Loading the page" />;
    if (hasErrorCode(error, 'NOT_FOUND')) return <Navigate to={FOR_YOU_PATH} replace />;
    return <LoadErrorState title="The page could not be loaded" error={error} onRetry={() => void refetch()} />;
  }
  if (!content.promotionPage) return <Navigate to={FOR_YOU_PATH} replace />;
  return <LandingView contentId={content._id} page={content.promotionPage} />;
}

function LandingView({ contentId, page }: { contentId: string; page: PromotionPage }) {
  const [register, { loading }] = useMutation(RegisterPromotionInterestDocument);
  const [registered, setRegistered] = useState(false);
  const html = useMemo(() => prepareArticleHtml(page.html), [page.html]);

  const onRegister = async () => {
    const context = { promotionalContentId: contentId };
    try {
      const { data } = await register({ variables: { item: context } });
      if (data?.notifyRegisteredInterestInPromotionalContent) setRegistered(true);
      else logger.warn('Registering interest in promotional content was refused', context);
    } catch (error) {
      logger.warn(`Registering interest in promotional content failed: ${formatError(error)}`, context);
    }
  };

  if (registered) return <Registered page={page} />;
  return (
    <Page title={page.name}>
      <div className="insights-article-body insights-promotion-body">
        <div className="insights-article-html" dangerouslySetInnerHTML={{ __html: html }} />
      </div>
      <div className="insights-promotion-actions">
        <Button text="Register interest" intent="primary" size="large" loading={loading} onClick={() => void onRegister()} />
      </div>
    </Page>
  );
}

/** The page's success title and message; the focus moves to the title so it is read out. */
function Registered({ page }: { page: PromotionPage }) {
  const navigate = useNavigate();
  const location = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  // The first page of a visit has the router's 'default' key: there is nothing to go back to.
  const canGoBack = location.key !== 'default';

  return (
    <Page title={page.name}>
      <section className="insights-promotion-success" aria-labelledby="promotion-success-title">
        <h2 id="promotion-success-title" ref={heading} tabIndex={-1}>
          {page.successTitle}
        </h2>
        <p>{page.successMessage}</p>
        <Button text="Continue" intent="primary" onClick={() => (canGoBack ? navigate(-1) : navigate(FOR_YOU_PATH))} />
      </section>
    </Page>
  );
}

export const PROMOTION_LANDING_OPERATIONS = gql`
  query PromotionLanding($id: ID!) {
    findPromotionalContentById(id: $id) {
      _id
      promotionPage {
        _id
        name
        html
        successTitle
        successMessage
      }
    }
  }

  mutation RegisterPromotionInterest($item: PromotionalContentInterestInput!) {
    notifyRegisteredInterestInPromotionalContent(item: $item)
  }
`;
