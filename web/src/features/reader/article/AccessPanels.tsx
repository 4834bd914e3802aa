//! What a reader who may not read the article in full sees under its summary (spec 3 §2 'Article
//! page'): for an article under a locked topic, a panel to contact the desk (no register button);
//! for a premium article, the premium panel with 'Register interest', which tells the desk by
//! email. A failed registration is only logged (spec 3 §8).
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useId, useState } from 'react';
import { Banner } from '../../../components/Banner';
import { AnchorButton, Button } from '../../../components/Button';
import { formatError } from '../../../lib/errors';
import { logger } from '../../../lib/logger';
import { RegisterArticleInterestDocument } from './__generated__/AccessPanels.generated';

export function LockedPanel({ deskEmail }: { deskEmail?: string | null }) {
  const titleId = useId();
  return (
    <section className="insights-article-access" aria-labelledby={titleId}>
      <h2 id={titleId}>This article is available to selected clients only</h2>
      <p>Contact the desk that published it to ask about access.</p>
      {deskEmail ? (
        <AnchorButton href={`mailto:${deskEmail}`} icon="envelope" intent="primary" text="Contact the desk" />
      ) : (
        <p>Ask your usual contact for access.</p>
      )}
    </section>
  );
}

export interface PremiumPanelProps {
  articleId: string;
  channelName?: string | null;
}

export function PremiumPanel({ articleId, channelName }: PremiumPanelProps) {
  const titleId = useId();
  const [registered, setRegistered] = useState(false);
  const [register, { loading }] = useMutation(RegisterArticleInterestDocument);

  const onRegister = async () => {
    try {
      const { data } = await register({ variables: { item: { articleId } } });
      if (data?.notifyRegisteredInterestInArticle) setRegistered(true);
      else logger.warn('Registering interest in an article was refused', { articleId });
    } catch (error) {
      logger.warn(`Registering interest in an article failed: ${formatError(error)}`, { articleId });
    }
  };

  return (
    <section className="insights-article-access" aria-labelledby={titleId}>
      <h2 id={titleId}>This is a premium article</h2>
      <p>
        {channelName ? `Subscribe to ${channelName} to read it in full` : 'Subscribe to its channel to read it in full'}, or register your
        interest and the desk will get in touch with you.
      </p>
      {registered ? (
        <Banner intent="success" title="Thank you for your interest">
          The desk has been told and will contact you shortly.
        </Banner>
      ) : (
        <Button text="Register interest" icon="hand-up" intent="primary" loading={loading} onClick={() => void onRegister()} />
      )}
    </section>
  );
}

export const REGISTER_ARTICLE_INTEREST_MUTATION = gql`
  mutation RegisterArticleInterest($item: ArticleInterestInput!) {
    notifyRegisteredInterestInArticle(item: $item)
  }
`;
