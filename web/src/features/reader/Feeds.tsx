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
//! The address or token with its secret comes back from its creation only, and is shown that once
//! (`ShownOnce`), until the reader presses Done. Lists show neither, only what a link follows or a
//! token's name, and when each was created and last used; Revoke asks first. Creating and revoking
//! read the list again.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/admin/ConfirmDialog';
import { TextField } from '../../components/admin/fields';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { SelectControl, type ChoiceOption } from '../../components/Controls';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { InputField } from '../../components/InputField';
import { LoadingBlock } from '../../components/LoadingScreen';
import { showToast } from '../../components/Toaster';
import { formatDateTime } from '../../lib/dates';
import { fieldErrors, formatError } from '../../lib/errors';
import { feedScopeText, lastUsedText, type FeedScopeKind } from '../../lib/feedScope';
import { logger } from '../../lib/logger';
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
  RevokeAccessTokenDocument,
  RevokeFeedLinkDocument,
  type MyAccessTokensQuery,
  type MyFeedLinksQuery,
} from './__generated__/Feeds.generated';
import './Feeds.css';

type FeedLink = MyFeedLinksQuery['myFeedLinks'][number];
type AccessToken = MyAccessTokensQuery['myAccessTokens'][number];

/** The longest token name the server takes. */
export const TOKEN_NAME_MAX = 100;
/** How many of each a reader may hold (the server answers CONFLICT beyond). */
export const MAX_FEED_LINKS = 20;
export const MAX_ACCESS_TOKENS = 10;

export const FEED_SHOWN_ONCE = 'This address is shown only once. Copy it into your feed reader now.';
export const TOKEN_SHOWN_ONCE = 'This token is shown only once. Copy it somewhere safe now.';
export const COPIED_TEXT = 'Copied to the clipboard';
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

/** The time of a link's or token's creation or last use, for the lists. */
function When({ value }: { value: string | null | undefined }) {
  if (!value) return <>{lastUsedText(value)}</>;
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}

/** The reader's feed links, Revoke on each, and the form that creates one. */
export function FeedLinks() {
  const words = useTopicWording();
  const formRef = useRef<HTMLFormElement>(null);
  const formHeadingId = useId();
  const { data, loading, error } = useQuery(MyFeedLinksDocument, { fetchPolicy: 'cache-and-network' });
  const refetch = { refetchQueries: [MyFeedLinksDocument], awaitRefetchQueries: true };
  const [create, creating] = useMutation(CreateFeedLinkDocument, refetch);
  const [revoke, revoking] = useMutation(RevokeFeedLinkDocument, refetch);
  const [kind, setKind] = useState<FeedScopeKind>('all');
  const [itemId, setItemId] = useState('');
  const [itemError, setItemError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [created, setCreated] = useState<{ url: string; follows: string } | null>(null);
  const [toRevoke, setToRevoke] = useState<FeedLink | null>(null);
  const items = useScopeItems(kind);

  const choose = (next: FeedScopeKind) => {
    setKind(next);
    setItemId('');
    setItemError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
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

  const confirmRevoke = async () => {
    if (!toRevoke) return;
    setAlert(null);
    try {
      await revoke({ variables: { id: toRevoke._id } });
      void showToast({ message: 'The feed link has been revoked.', intent: 'success' });
    } catch (e) {
      setAlert(formatError(e));
    }
    setToRevoke(null);
  };

  const done = () => {
    setCreated(null);
    formRef.current?.querySelector<HTMLElement>('button[type="submit"]')?.focus();
  };

  const columns: DataColumn<FeedLink>[] = [
    { key: 'follows', title: 'Follows', render: (l) => feedScopeText(l.scope, words) },
    { key: 'created', title: 'Created', render: (l) => <When value={l.createdAt} /> },
    { key: 'lastUsed', title: 'Last used', render: (l) => <When value={l.lastUsedAt} /> },
    {
      key: 'revoke',
      title: 'Actions',
      render: (l) => (
        <Button
          text="Revoke"
          size="small"
          variant="outlined"
          intent="danger"
          label={`Revoke the feed link for ${feedScopeText(l.scope, words)}, created ${formatDateTime(l.createdAt)}`}
          onClick={() => setToRevoke(l)}
        />
      ),
    },
  ];

  const links = data?.myFeedLinks ?? [];
  return (
    <div className="insights-feeds">
      <p className="insights-feeds-help">
        A feed link is a private Atom feed address: add it to your feed reader to get new articles there. Anyone with the address can read
        the feed, so keep it to yourself, and revoke a link you no longer use. You can have up to {MAX_FEED_LINKS} feed links.
      </p>
      {created && (
        <ShownOnce
          key={created.url}
          title="Your new feed address"
          label="Feed address"
          value={created.url}
          sentence={FEED_SHOWN_ONCE}
          onDone={done}
        >
          <p>Follows: {created.follows}</p>
        </ShownOnce>
      )}
      {(alert || (error && !data)) && (
        <Banner intent="danger" role="alert">
          {alert ?? formatError(error)}
        </Banner>
      )}
      {loading && !data ? (
        <LoadingBlock label="Loading your feed links" />
      ) : (
        <div className="insights-feeds-table" tabIndex={0} role="region" aria-label="Your feed links">
          <DataTable label="Your feed links" columns={columns} rows={links} rowKey={(l) => l._id} emptyText="No feed links yet" />
        </div>
      )}
      <h3 id={formHeadingId} className="insights-feeds-form-title">
        New feed link
      </h3>
      <form ref={formRef} className="insights-feeds-form" aria-labelledby={formHeadingId} onSubmit={(e) => void submit(e)} noValidate>
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
      </form>
      <ConfirmDialog
        isOpen={toRevoke !== null}
        title="Revoke this feed link?"
        icon="disable"
        confirmText="Revoke"
        loading={revoking.loading}
        onConfirm={() => void confirmRevoke()}
        onCancel={() => setToRevoke(null)}
      >
        <p>
          {toRevoke && feedScopeText(toRevoke.scope, words)}: its address stops working at once, in every feed reader that uses it. This
          cannot be undone.
        </p>
      </ConfirmDialog>
    </div>
  );
}

/** The reader's access tokens, Revoke on each, and the form that creates one. */
export function AccessTokens() {
  const formRef = useRef<HTMLFormElement>(null);
  const formHeadingId = useId();
  const { data, loading, error } = useQuery(MyAccessTokensDocument, { fetchPolicy: 'cache-and-network' });
  const refetch = { refetchQueries: [MyAccessTokensDocument], awaitRefetchQueries: true };
  const [create, creating] = useMutation(CreateAccessTokenDocument, refetch);
  const [revoke, revoking] = useMutation(RevokeAccessTokenDocument, refetch);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [created, setCreated] = useState<{ secret: string; name: string } | null>(null);
  const [toRevoke, setToRevoke] = useState<AccessToken | null>(null);
  const mcpUrl = new URL('/mcp', window.location.origin).href;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
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

  const confirmRevoke = async () => {
    if (!toRevoke) return;
    setAlert(null);
    try {
      await revoke({ variables: { id: toRevoke._id } });
      void showToast({ message: `The access token ${toRevoke.name} has been revoked.`, intent: 'success' });
    } catch (e) {
      setAlert(formatError(e));
    }
    setToRevoke(null);
  };

  const done = () => {
    setCreated(null);
    formRef.current?.querySelector<HTMLElement>('button[type="submit"]')?.focus();
  };

  const columns: DataColumn<AccessToken>[] = [
    { key: 'name', title: 'Name', render: (t) => t.name },
    { key: 'created', title: 'Created', render: (t) => <When value={t.createdAt} /> },
    { key: 'lastUsed', title: 'Last used', render: (t) => <When value={t.lastUsedAt} /> },
    {
      key: 'revoke',
      title: 'Actions',
      render: (t) => (
        <Button
          text="Revoke"
          size="small"
          variant="outlined"
          intent="danger"
          label={`Revoke the access token ${t.name}`}
          onClick={() => setToRevoke(t)}
        />
      ),
    },
  ];

  const tokens = data?.myAccessTokens ?? [];
  return (
    <div className="insights-feeds">
      <p className="insights-feeds-help">
        An access token lets an AI assistant, through the MCP server at <code>{mcpUrl}</code>, or a script using the API read Insights as
        you. Tokens can only read, never change anything. Treat a token like a password: anyone who has it can read what you can. Revoke a
        token you no longer use. You can have up to {MAX_ACCESS_TOKENS} access tokens.
      </p>
      {created && (
        <ShownOnce
          key={created.secret}
          title="Your new access token"
          label="Access token"
          value={created.secret}
          sentence={TOKEN_SHOWN_ONCE}
          onDone={done}
        >
          <p>Name: {created.name}</p>
        </ShownOnce>
      )}
      {(alert || (error && !data)) && (
        <Banner intent="danger" role="alert">
          {alert ?? formatError(error)}
        </Banner>
      )}
      {loading && !data ? (
        <LoadingBlock label="Loading your access tokens" />
      ) : (
        <div className="insights-feeds-table" tabIndex={0} role="region" aria-label="Your access tokens">
          <DataTable label="Your access tokens" columns={columns} rows={tokens} rowKey={(t) => t._id} emptyText="No access tokens yet" />
        </div>
      )}
      <h3 id={formHeadingId} className="insights-feeds-form-title">
        New access token
      </h3>
      <form ref={formRef} className="insights-feeds-form" aria-labelledby={formHeadingId} onSubmit={(e) => void submit(e)} noValidate>
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
      </form>
      <ConfirmDialog
        isOpen={toRevoke !== null}
        title="Revoke this access token?"
        icon="disable"
        confirmText="Revoke"
        loading={revoking.loading}
        onConfirm={() => void confirmRevoke()}
        onCancel={() => setToRevoke(null)}
      >
        <p>{toRevoke?.name}: whatever uses this token can no longer read Insights with it, from now on. This cannot be undone.</p>
      </ConfirmDialog>
    </div>
  );
}

interface ShownOnceProps {
  title: string;
  /** The read-only field's label. */
  label: string;
  value: string;
  /** Under the field, read with it: the value is not shown again. */
  sentence: string;
  onDone: () => void;
  children?: ReactNode;
}

/**
 * A secret the server returns this once: in a read-only field that takes focus (its text
 * selected), with Copy, until Done. When the browser refuses the clipboard, the field is selected
 * again for the reader to copy it themselves.
 */
function ShownOnce({ title, label, value, sentence, onDone, children }: ShownOnceProps) {
  const headingId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('The clipboard is not available');
      await navigator.clipboard.writeText(value);
      void showToast({ message: COPIED_TEXT, intent: 'success' });
    } catch (error) {
      // Never the value itself: it is a secret.
      logger.warn(`Copying a secret shown once failed: ${error instanceof Error ? error.message : String(error)}`);
      void showToast({ message: 'It could not be copied. Select it and copy it yourself (Ctrl+C or ⌘C).', intent: 'warning' });
      boxRef.current?.querySelector('input')?.focus();
    }
  };
  return (
    <div className="insights-feeds-once" ref={boxRef} role="region" aria-labelledby={headingId}>
      <Banner intent="success">
        <h3 id={headingId} className="insights-feeds-once-title">
          {title}
        </h3>
        {children}
        <InputField label={label} value={value} onChange={() => {}} readOnly autoFocus helperText={sentence} />
        <div className="insights-feeds-once-actions">
          <Button text="Copy" icon="duplicate" label={`Copy the ${label.toLowerCase()}`} onClick={() => void copy()} />
          <Button text="Done" intent="primary" onClick={onDone} />
        </div>
      </Banner>
    </div>
  );
}

export const FEEDS_OPERATIONS = gql`
  query MyFeedLinks {
    myFeedLinks {
      _id
      scope {
        kind
        id
        name
      }
      createdAt
      lastUsedAt
    }
  }

  query MyAccessTokens {
    myAccessTokens {
      _id
      name
      createdAt
      lastUsedAt
    }
  }

  mutation CreateFeedLink($scope: FeedScopeInput!) {
    createFeedLink(scope: $scope) {
      link {
        _id
        scope {
          kind
          id
          name
        }
        createdAt
        lastUsedAt
      }
      url
    }
  }

  mutation RevokeFeedLink($id: ID!) {
    revokeFeedLink(id: $id)
  }

  mutation CreateAccessToken($name: String!) {
    createAccessToken(name: $name) {
      token {
        _id
        name
        createdAt
        lastUsedAt
      }
      secret
    }
  }

  mutation RevokeAccessToken($id: ID!) {
    revokeAccessToken(id: $id)
  }
`;
