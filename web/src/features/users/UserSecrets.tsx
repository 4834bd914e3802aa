//! A user's feed links and personal access tokens (issue 41) on the user edit screen, for
//! Administrators: how many, each listed as the user sees it (what a link follows or a token's
//! name, created, last used; never a secret), and Revoke after a confirmation. Revoking takes
//! effect at once, apart from the user form's Update. The lists and Revoke are lib/secrets', as on
//! the reader's own Subscriptions page.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useId, useState } from 'react';
import { secretsCountText } from '../../lib/secrets/feedScope';
import { useAccessTokenRevocation, useFeedLinkRevocation } from '../../lib/secrets/revoke';
import { AccessTokensTable, FeedLinksTable, SecretsLoader } from '../../lib/secrets/SecretsTables';
import { UserSecretsDocument } from './__generated__/UserSecrets.generated';
import './UserSecrets.css';

export function UserSecrets({ userId, userName }: { userId: string; userName: string }) {
  const headingId = useId();
  const query = useQuery(UserSecretsDocument, { variables: { userId }, fetchPolicy: 'cache-and-network' });
  const refetchQueries = [{ query: UserSecretsDocument, variables: { userId } }];
  const [alert, setAlert] = useState<string | null>(null);
  const linkRevocation = useFeedLinkRevocation({
    refetchQueries,
    consequence: (follows) => `${userName}'s feed link for ${follows} stops working at once, in every feed reader that uses it.`,
    revokedText: (follows) => `The feed link of ${userName} for ${follows} has been revoked.`,
    setAlert,
  });
  const tokenRevocation = useAccessTokenRevocation({
    refetchQueries,
    consequence: (token) => `${userName}'s access token ${token} stops working at once.`,
    revokedText: (token) => `The access token ${token} of ${userName} has been revoked.`,
    setAlert,
  });

  const links = query.data?.userFeedLinks ?? [];
  const tokens = query.data?.userAccessTokens ?? [];
  return (
    <section className="insights-user-secrets" aria-labelledby={headingId}>
      <h2 id={headingId}>Feed links and access tokens</h2>
      <p className="insights-secrets-help">
        The user&apos;s private feed addresses and the tokens their AI assistants and scripts read Insights with. Revoking one stops it
        working at once.
      </p>
      <SecretsLoader alert={alert} query={query} loadingLabel="Loading the feed links and access tokens">
        <p>{secretsCountText(links.length, tokens.length)}</p>
        {links.length + tokens.length > 0 && (
          <>
            <h3>Feed links</h3>
            <FeedLinksTable label="Feed links" rows={links} emptyText="No feed links" onRevoke={linkRevocation.ask} />
            <h3>Access tokens</h3>
            <AccessTokensTable label="Access tokens" rows={tokens} emptyText="No access tokens" onRevoke={tokenRevocation.ask} />
          </>
        )}
      </SecretsLoader>
      {linkRevocation.dialog}
      {tokenRevocation.dialog}
    </section>
  );
}

export const USER_SECRETS_OPERATIONS = gql`
  query UserSecrets($userId: ID!) {
    userFeedLinks(userId: $userId) {
      ...FeedLinksTable_link
    }
    userAccessTokens(userId: $userId) {
      ...AccessTokensTable_token
    }
  }
`;
