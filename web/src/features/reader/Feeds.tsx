//! The reader's private feeds and personal access tokens (issue 41), two sections of the
//! Subscriptions page.
//!
//! Feeds: each feed link is a private Atom feed address for a feed reader, following all the
//! reader's subscriptions, a channel, a topic (with its sub-topics), a desk or a contributor. The
//! choices come from the browse pages' own queries (the channels directory, the topic tree, the
//! desks and the contributors), read only once a kind of item is chosen.
//!
//! Access tokens: bearer tokens for AI assistants (the MCP server at /mcp) and scripts using the
//! API, read only.
//!
//! Both sections are laid out alike (`SecretsSection`): what they are for, the address or token
//! just created with its secret, shown that once (`ShownOnce`, until the reader presses Done), the
//! list, and the form that creates one. The lists, Revoke with its confirmation and `ShownOnce`
//! are lib/secrets', shared with the Administrators' view of a user's (features/users/UserSecrets).
//! Lists show no secret, only what a link follows or a token's name, and when each was created and
//! last used. Creating and revoking read the list again.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useId, useRef, useState, type FormEvent, type ReactElement, type ReactNode } from 'react';
import { TextField } from '../../components/admin/fields';
import { Button } from '../../components/Button';
import { SelectControl, type ChoiceOption } from '../../components/Controls';
import { fieldErrors, formatError } from '../../lib/errors';
import { feedScopeText, type FeedScopeKind } from '../../lib/secrets/feedScope';
import { useAccessTokenRevocation, useFeedLinkRevocation } from '../../lib/secrets/revoke';
import { AccessTokensTable, FeedLinksTable, SecretsLoader, type SecretsLoaderProps } from '../../lib/secrets/SecretsTables';
import { ShownOnce, type ShownOnceProps } from '../../lib/secrets/ShownOnce';
import { useTopicWording, type TopicWording } from '../../lib/topicWording';
import { allTopics, toTopicNodes } from './browse/topicTree';
import { BrowseContributorsDocument } from './browse/__generated__/ContributorDirectory.generated';
import { BrowseDesksDocument } from './browse/__generated__/DeskDirectory.generated';
import { BrowseTopicTreeDocument } from './browse/__generated__/topicTree.generated';
import { ChannelsScreenDocument } from './__generated__/Channels.generated';
import {
  CreateAccessTokenDocument,
  CreateFeedLinkDocument,
  MyAccessTokensDocument,
  MyFeedLinksDocument,
} from './__generated__/Feeds.generated';
import './Feeds.css';

/** The longest token name the server takes. */
export const TOKEN_NAME_MAX = 100;
/** How many of each a reader may hold (the server answers CONFLICT beyond). */
export const MAX_FEED_LINKS = 20;
export const MAX_ACCESS_TOKENS = 10;

export const FEED_SHOWN_ONCE = 'This address is shown only once. Copy it into your feed reader now.';
export const TOKEN_SHOWN_ONCE = 'This token is shown only once. Copy it somewhere safe now.';
export const REQUIRED_TEXT = 'This field is required';

/** The 'Follows' choices. */
export function scopeKindOptions(words: TopicWording): ChoiceOption<FeedScopeKind>[] {
  return [
    { value: 'all', label: 'All my subscriptions' },
    { value: 'channel', label: 'A channel' },
    { value: 'topic', label: `A ${words.one}` },
    { value: 'desk', label: 'A desk' },
    { value: 'contributor', label: 'A contributor' },
  ];
}

/** The second select's label for a kind: 'Channel', 'Topic', 'Desk', 'Contributor'. */
function itemLabel(kind: Exclude<FeedScopeKind, 'all'>, words: TopicWording): string {
  return { channel: 'Channel', topic: words.One, desk: 'Desk', contributor: 'Contributor' }[kind];
}

const byName = (a: ChoiceOption<string>, b: ChoiceOption<string>) => a.label.localeCompare(b.label);

interface ScopeItems {
  options: ChoiceOption<string>[];
  loading: boolean;
  error?: unknown;
}

/**
 * The items of the chosen kind, from the browse pages' queries: channels, desks and contributors
 * by name, topics in the directory's order with the topics above them ('Energy › Oil').
 */
function useScopeItems(kind: FeedScopeKind): ScopeItems {
  const channels = useQuery(ChannelsScreenDocument, { skip: kind !== 'channel' });
  const topics = useQuery(BrowseTopicTreeDocument, { skip: kind !== 'topic' });
  const desks = useQuery(BrowseDesksDocument, { skip: kind !== 'desk' });
  const contributors = useQuery(BrowseContributorsDocument, { skip: kind !== 'contributor' });
  switch (kind) {
    case 'all':
      return { options: [], loading: false };
    case 'channel':
      return {
        options: (channels.data?.allChannels ?? []).map((c) => ({ value: c._id, label: c.name })).sort(byName),
        loading: channels.loading && !channels.data,
        error: channels.error,
      };
    case 'topic':
      return {
        options: allTopics(toTopicNodes(topics.data?.categoriesAsTree ?? [])).map(({ topic, ancestors }) => ({
          value: topic._id,
          label: [...ancestors, topic].map((t) => t.name).join(' › '),
        })),
        loading: topics.loading && !topics.data,
        error: topics.error,
      };
    case 'desk':
      return {
        options: (desks.data?.desks ?? []).map((d) => ({ value: d._id, label: d.name })).sort(byName),
        loading: desks.loading && !desks.data,
        error: desks.error,
      };
    case 'contributor':
      return {
        options: (contributors.data?.contributors ?? []).map((c) => ({ value: c._id, label: c.name })).sort(byName),
        loading: contributors.loading && !contributors.data,
        error: contributors.error,
      };
  }
}

interface SecretsSectionProps extends Omit<SecretsLoaderProps, 'children'> {
  /** What these are for and how many the reader may have, at the top. */
  help: ReactNode;
  /** The secret just created, shown once until Done; null otherwise. */
  created: Omit<ShownOnceProps, 'onDone'> | null;
  /** Done pressed under the secret: forget it. */
  onDone: () => void;
  /** The list (`FeedLinksTable`, `AccessTokensTable`). */
  table: ReactNode;
  /** The form's heading: 'New feed link'. */
  formTitle: string;
  onSubmit: () => void;
  /** The form's fields and its submit button. */
  children: ReactNode;
  /** The revoke confirmation (`Revocation.dialog`). */
  revokeDialog: ReactElement;
}

/**
 * The layout of both sections: the help, the secret just created, the alert, the list, the form
 * and the revoke confirmation. Done under the secret moves the focus to the form's submit button.
 */
function SecretsSection({ help, created, onDone, table, formTitle, onSubmit, children, revokeDialog, ...list }: SecretsSectionProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const formHeadingId = useId();

  const done = () => {
    onDone();
    formRef.current?.querySelector<HTMLElement>('button[type="submit"]')?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <div className="insights-feeds">
      <p className="insights-secrets-help">{help}</p>
      {created && <ShownOnce key={created.value} {...created} onDone={done} />}
      <SecretsLoader {...list}>{table}</SecretsLoader>
      <h3 id={formHeadingId} className="insights-feeds-form-title">
        {formTitle}
      </h3>
      <form ref={formRef} className="insights-feeds-form" aria-labelledby={formHeadingId} onSubmit={submit} noValidate>
        {children}
      </form>
      {revokeDialog}
    </div>
  );
}

/** The reader's feed links, Revoke on each, and the form that creates one. */
export function FeedLinks() {
  const words = useTopicWording();
  const query = useQuery(MyFeedLinksDocument, { fetchPolicy: 'cache-and-network' });
  const [create, creating] = useMutation(CreateFeedLinkDocument, { refetchQueries: [MyFeedLinksDocument], awaitRefetchQueries: true });
  const [kind, setKind] = useState<FeedScopeKind>('all');
  const [itemId, setItemId] = useState('');
  const [itemError, setItemError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [created, setCreated] = useState<{ url: string; follows: string } | null>(null);
  const items = useScopeItems(kind);
  const revocation = useFeedLinkRevocation({
    refetchQueries: [MyFeedLinksDocument],
    consequence: (follows) => `${follows}: its address stops working at once, in every feed reader that uses it.`,
    revokedText: () => 'The feed link has been revoked.',
    setAlert,
  });

  const choose = (next: FeedScopeKind) => {
    setKind(next);
    setItemId('');
    setItemError(null);
  };

  const submit = async () => {
    if (creating.loading) return;
    setAlert(null);
    if (kind !== 'all' && itemId === '') {
      setItemError(REQUIRED_TEXT);
      return;
    }
    try {
      const result = await create({ variables: { scope: kind === 'all' ? { kind } : { kind, id: itemId } } });
      const answer = result.data?.createFeedLink;
      if (answer) setCreated({ url: answer.url, follows: feedScopeText(answer.link.scope, words) });
      choose('all');
    } catch (e) {
      const field = fieldErrors(e).id;
      if (field && kind !== 'all') setItemError(field);
      else setAlert(formatError(e));
    }
  };

  return (
    <SecretsSection
      help={
        <>
          A feed link is a private Atom feed address: add it to your feed reader to get new articles there. Anyone with the address can read
          the feed, so keep it to yourself, and revoke a link you no longer use. You can have up to {MAX_FEED_LINKS} feed links.
        </>
      }
      created={
        created && {
          title: 'Your new feed address',
          label: 'Feed address',
          value: created.url,
          sentence: FEED_SHOWN_ONCE,
          detail: <p>Follows: {created.follows}</p>,
        }
      }
      onDone={() => setCreated(null)}
      alert={alert}
      query={query}
      loadingLabel="Loading your feed links"
      table={
        <FeedLinksTable
          label="Your feed links"
          rows={query.data?.myFeedLinks ?? []}
          emptyText="No feed links yet"
          onRevoke={revocation.ask}
        />
      }
      formTitle="New feed link"
      onSubmit={() => void submit()}
      revokeDialog={revocation.dialog}
    >
      <SelectControl label="Follows" options={scopeKindOptions(words)} value={kind} onChange={choose} />
      {kind !== 'all' && (
        <SelectControl
          label={itemLabel(kind, words)}
          options={[
            { value: '', label: items.loading ? 'Loading…' : `Choose a ${itemLabel(kind, words).toLowerCase()}` },
            ...items.options,
          ]}
          value={itemId}
          disabled={items.loading}
          error={itemError ?? (items.error ? formatError(items.error) : undefined)}
          onChange={(v) => {
            setItemId(v);
            setItemError(null);
          }}
        />
      )}
      <Button type="submit" text="Create feed link" icon="feed" intent="primary" loading={creating.loading} />
    </SecretsSection>
  );
}

/** The reader's access tokens, Revoke on each, and the form that creates one. */
export function AccessTokens() {
  const query = useQuery(MyAccessTokensDocument, { fetchPolicy: 'cache-and-network' });
  const [create, creating] = useMutation(CreateAccessTokenDocument, {
    refetchQueries: [MyAccessTokensDocument],
    awaitRefetchQueries: true,
  });
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [created, setCreated] = useState<{ secret: string; name: string } | null>(null);
  const revocation = useAccessTokenRevocation({
    refetchQueries: [MyAccessTokensDocument],
    consequence: (token) => `${token}: whatever uses this token can no longer read Insights with it, from now on.`,
    revokedText: (token) => `The access token ${token} has been revoked.`,
    setAlert,
  });
  const mcpUrl = new URL('/mcp', window.location.origin).href;

  const submit = async () => {
    if (creating.loading) return;
    setAlert(null);
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError(REQUIRED_TEXT);
      return;
    }
    try {
      const result = await create({ variables: { name: trimmed } });
      const answer = result.data?.createAccessToken;
      if (answer) setCreated({ secret: answer.secret, name: answer.token.name });
      setName('');
      setNameError(null);
    } catch (e) {
      const field = fieldErrors(e).name;
      if (field) setNameError(field);
      else setAlert(formatError(e));
    }
  };

  return (
    <SecretsSection
      help={
        <>
          An access token lets an AI assistant, through the MCP server at <code>{mcpUrl}</code>, or a script using the API read Insights as
          you. Tokens can only read, never change anything. Treat a token like a password: anyone who has it can read what you can. Revoke a
          token you no longer use. You can have up to {MAX_ACCESS_TOKENS} access tokens.
        </>
      }
      created={
        created && {
          title: 'Your new access token',
          label: 'Access token',
          value: created.secret,
          sentence: TOKEN_SHOWN_ONCE,
          detail: <p>Name: {created.name}</p>,
        }
      }
      onDone={() => setCreated(null)}
      alert={alert}
      query={query}
      loadingLabel="Loading your access tokens"
      table={
        <AccessTokensTable
          label="Your access tokens"
          rows={query.data?.myAccessTokens ?? []}
          emptyText="No access tokens yet"
          onRevoke={revocation.ask}
        />
      }
      formTitle="New access token"
      onSubmit={() => void submit()}
      revokeDialog={revocation.dialog}
    >
      <TextField
        label="Token name"
        name="name"
        maxLength={TOKEN_NAME_MAX}
        placeholder="e.g. My assistant"
        value={name}
        error={nameError ?? undefined}
        onChange={(v) => {
          setName(v);
          setNameError(null);
        }}
        onBlur={() => {}}
      />
      <Button type="submit" text="Create access token" icon="lock" intent="primary" loading={creating.loading} />
    </SecretsSection>
  );
}

export const FEEDS_OPERATIONS = gql`
  query MyFeedLinks {
    myFeedLinks {
      ...FeedLinksTable_link
    }
  }

  query MyAccessTokens {
    myAccessTokens {
      ...AccessTokensTable_token
    }
  }

  mutation CreateFeedLink($scope: FeedScopeInput!) {
    createFeedLink(scope: $scope) {
      link {
        ...FeedLinksTable_link
      }
      url
    }
  }

  mutation CreateAccessToken($name: String!) {
    createAccessToken(name: $name) {
      token {
        ...AccessTokensTable_token
      }
      secret
    }
  }
`;
