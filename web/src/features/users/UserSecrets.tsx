//! A user's feed links and personal access tokens (issue 41) on the user edit screen, for
//! Administrators: how many, each listed as the user sees it (what a link follows or a token's
//! name, created, last used; never a secret), and Revoke after a confirmation. Revoking takes
//! effect at once, apart from the user form's Update.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../components/admin/ConfirmDialog';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { LoadingBlock } from '../../components/LoadingScreen';
import { showToast } from '../../components/Toaster';
import { formatDateTime } from '../../lib/dates';
import { formatError } from '../../lib/errors';
import { feedScopeText, lastUsedText, secretsCountText } from '../../lib/feedScope';
import { useTopicWording } from '../../lib/topicWording';
import {
  RevokeUserAccessTokenDocument,
  RevokeUserFeedLinkDocument,
  UserSecretsDocument,
  type UserSecretsQuery,
} from './__generated__/UserSecrets.generated';
import './UserSecrets.css';

type FeedLink = UserSecretsQuery['userFeedLinks'][number];
type AccessToken = UserSecretsQuery['userAccessTokens'][number];

/** What Revoke is about to remove. */
type Revoking = { type: 'link'; link: FeedLink; text: string } | { type: 'token'; token: AccessToken };

function When({ value }: { value: string | null | undefined }) {
  if (!value) return <>{lastUsedText(value)}</>;
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}

export function UserSecrets({ userId, userName }: { userId: string; userName: string }) {
  const headingId = useId();
  const linksHeadingId = useId();
  const tokensHeadingId = useId();
  const words = useTopicWording();
  const { data, loading, error } = useQuery(UserSecretsDocument, { variables: { userId }, fetchPolicy: 'cache-and-network' });
  const refetch = { refetchQueries: [{ query: UserSecretsDocument, variables: { userId } }], awaitRefetchQueries: true };
  const [revokeLink, revokingLink] = useMutation(RevokeUserFeedLinkDocument, refetch);
  const [revokeToken, revokingToken] = useMutation(RevokeUserAccessTokenDocument, refetch);
  const [revoking, setRevoking] = useState<Revoking | null>(null);
  const [alert, setAlert] = useState<string | null>(null);

  const confirm = async () => {
    if (!revoking) return;
    setAlert(null);
    try {
      if (revoking.type === 'link') {
        await revokeLink({ variables: { id: revoking.link._id } });
        void showToast({ message: `The feed link of ${userName} for ${revoking.text} has been revoked.`, intent: 'success' });
      } else {
        await revokeToken({ variables: { id: revoking.token._id } });
        void showToast({ message: `The access token ${revoking.token.name} of ${userName} has been revoked.`, intent: 'success' });
      }
    } catch (e) {
      setAlert(formatError(e));
    }
    setRevoking(null);
  };

  const revokeButton = (label: string, onClick: () => void) => (
    <Button text="Revoke" size="small" variant="outlined" intent="danger" label={label} onClick={onClick} />
  );

  const linkColumns: DataColumn<FeedLink>[] = [
    { key: 'follows', title: 'Follows', render: (l) => feedScopeText(l.scope, words) },
    { key: 'created', title: 'Created', render: (l) => <When value={l.createdAt} /> },
    { key: 'lastUsed', title: 'Last used', render: (l) => <When value={l.lastUsedAt} /> },
    {
      key: 'revoke',
      title: 'Actions',
      render: (l) => {
        const text = feedScopeText(l.scope, words);
        return revokeButton(`Revoke the feed link for ${text}, created ${formatDateTime(l.createdAt)}`, () =>
          setRevoking({ type: 'link', link: l, text }),
        );
      },
    },
  ];

  const tokenColumns: DataColumn<AccessToken>[] = [
    { key: 'name', title: 'Name', render: (t) => t.name },
    { key: 'created', title: 'Created', render: (t) => <When value={t.createdAt} /> },
    { key: 'lastUsed', title: 'Last used', render: (t) => <When value={t.lastUsedAt} /> },
    {
      key: 'revoke',
      title: 'Actions',
      render: (t) => revokeButton(`Revoke the access token ${t.name}`, () => setRevoking({ type: 'token', token: t })),
    },
  ];

  const links = data?.userFeedLinks ?? [];
  const tokens = data?.userAccessTokens ?? [];
  const busy = revokingLink.loading || revokingToken.loading;
  return (
    <section className="insights-user-secrets" aria-labelledby={headingId}>
      <h2 id={headingId}>Feed links and access tokens</h2>
      <p className="insights-user-secrets-help">
        The user&apos;s private feed addresses and the tokens their AI assistants and scripts read Insights with. Revoking one stops it
        working at once.
      </p>
      {(alert || (error && !data)) && (
        <Banner intent="danger" role="alert">
          {alert ?? formatError(error)}
        </Banner>
      )}
      {loading && !data ? (
        <LoadingBlock label="Loading the feed links and access tokens" />
      ) : data ? (
        <>
          <p>{secretsCountText(links.length, tokens.length)}</p>
          {links.length + tokens.length > 0 && (
            <>
              <h3 id={linksHeadingId}>Feed links</h3>
              <div className="insights-user-secrets-table" tabIndex={0} role="region" aria-labelledby={linksHeadingId}>
                <DataTable label="Feed links" columns={linkColumns} rows={links} rowKey={(l) => l._id} emptyText="No feed links" />
              </div>
              <h3 id={tokensHeadingId}>Access tokens</h3>
              <div className="insights-user-secrets-table" tabIndex={0} role="region" aria-labelledby={tokensHeadingId}>
                <DataTable label="Access tokens" columns={tokenColumns} rows={tokens} rowKey={(t) => t._id} emptyText="No access tokens" />
              </div>
            </>
          )}
        </>
      ) : null}
      <ConfirmDialog
        isOpen={revoking !== null}
        title={revoking?.type === 'token' ? 'Revoke this access token?' : 'Revoke this feed link?'}
        icon="disable"
        confirmText="Revoke"
        loading={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setRevoking(null)}
      >
        <p>
          {revoking?.type === 'token'
            ? `${userName}'s access token ${revoking.token.name} stops working at once.`
            : `${userName}'s feed link for ${revoking?.type === 'link' ? revoking.text : ''} stops working at once, in every feed reader that uses it.`}{' '}
          This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}

export const USER_SECRETS_OPERATIONS = gql`
  query UserSecrets($userId: ID!) {
    userFeedLinks(userId: $userId) {
      _id
      scope {
        kind
        id
        name
      }
      createdAt
      lastUsedAt
    }
    userAccessTokens(userId: $userId) {
      _id
      name
      createdAt
      lastUsedAt
    }
  }

  mutation RevokeUserFeedLink($id: ID!) {
    revokeFeedLink(id: $id)
  }

  mutation RevokeUserAccessToken($id: ID!) {
    revokeAccessToken(id: $id)
  }
`;
