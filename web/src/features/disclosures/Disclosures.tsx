//! Disclosures for Administrators (issue 40): each channel's and desk's regulatory text (conflicts
//! of interest, analyst certification, risk warnings), shown under the articles published after it.
//! Every save is a new version; the articles published before keep the version they were published
//! under, so what a reader saw on a given day can be shown later. An empty text withdraws it.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { SelectControl } from '../../components/Controls';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { RichTextEditor } from '../../components/richtext/RichTextEditor';
import { showToast } from '../../components/Toaster';
import { formatFullDateTime } from '../../lib/dates';
import { formatError } from '../../lib/errors';
import {
  DisclosuresScreenDocument,
  EditDisclosureDocument,
  type DisclosuresScreenQuery,
  type DisclosureScope,
} from './__generated__/Disclosures.generated';

type Current = DisclosuresScreenQuery['disclosures'][number];

export const SCOPE_LABELS: Record<DisclosureScope, string> = { channel: 'Channel', desk: 'Desk' };

interface Target {
  scopeType: DisclosureScope;
  scopeId: string;
}

const key = (t: Target) => `${t.scopeType}:${t.scopeId}`;

export default function Disclosures() {
  const { data, loading, error, refetch } = useQuery(DisclosuresScreenDocument, { fetchPolicy: 'cache-and-network' });
  const [target, setTarget] = useState<Target | null>(null);
  // The text being written; null until the editor changes it (the current text stands).
  const [draft, setDraft] = useState<string | null>(null);
  const [resetKey, setResetKey] = useState(0);
  const [save, saving] = useMutation(EditDisclosureDocument);

  if (error && !data) {
    return (
      <Page title="Disclosures">
        <Banner intent="danger" role="alert">
          <p>{formatError(error)}</p>
          <Button text="Retry" size="small" onClick={() => void refetch()} />
        </Banner>
      </Page>
    );
  }
  if (loading && !data) return <LoadingBlock />;
  const current = data?.disclosures ?? [];
  const scopes: (Target & { label: string })[] = [
    ...(data?.allChannels ?? []).map((c) => ({ scopeType: 'channel' as const, scopeId: c._id, label: `Channel: ${c.name}` })),
    ...(data?.desks ?? []).map((d) => ({ scopeType: 'desk' as const, scopeId: d._id, label: `Desk: ${d.name}` })),
  ];
  const chosen = target ?? scopes[0] ?? null;
  const existing = chosen ? current.find((d) => key(d) === key(chosen)) : undefined;

  const choose = (value: string) => {
    const next = scopes.find((s) => key(s) === value) ?? null;
    setTarget(next);
    setDraft(null);
    setResetKey((k) => k + 1);
  };
  const edit = (d: Current) => choose(key(d));

  const submit = async () => {
    if (!chosen) return;
    try {
      const html = draft ?? existing?.html ?? '';
      const saved = await save({
        variables: { item: { scopeType: chosen.scopeType, scopeId: chosen.scopeId, html, version: existing?.version ?? 0 } },
      });
      const version = saved.data?.editDisclosure.version;
      showToast({ message: `Disclosure saved as version ${version}.`, intent: 'success' });
      await refetch();
      setDraft(null);
    } catch (failure) {
      showToast({ message: `The disclosure was not saved: ${formatError(failure)}`, intent: 'danger' });
    }
  };

  const columns: DataColumn<Current>[] = [
    { key: 'scope', title: 'For', render: (d) => `${SCOPE_LABELS[d.scopeType]}: ${d.scopeName ?? d.scopeId}` },
    { key: 'version', title: 'Version', render: (d) => d.version },
    { key: 'state', title: 'Text', render: (d) => (d.html ? 'In force' : 'Withdrawn') },
    { key: 'saved', title: 'Saved', render: (d) => `${formatFullDateTime(d.createdAt)}${d.createdByName ? ` by ${d.createdByName}` : ''}` },
    {
      key: 'edit',
      title: 'Edit',
      render: (d) => (
        <Button text="Edit" icon="edit" size="small" label={`Edit the disclosure of ${d.scopeName ?? d.scopeId}`} onClick={() => edit(d)} />
      ),
    },
  ];

  return (
    <Page title="Disclosures">
      <p>
        Regulatory texts shown under the articles of a channel or desk. Each save is a new version: articles published from then on show it,
        those published before keep the version they were published under.
      </p>
      <DataTable
        label="Disclosures in force"
        columns={columns}
        rows={current}
        rowKey={key}
        emptyText="No disclosure has been written yet."
      />
      {chosen && (
        <section aria-labelledby="disclosure-edit" className="insights-disclosure-edit">
          <h2 id="disclosure-edit">Write a disclosure</h2>
          <SelectControl
            label="For"
            options={scopes.map((s) => ({ value: key(s), label: s.label }))}
            value={key(chosen)}
            onChange={choose}
          />
          <p>
            {existing ? `Current: version ${existing.version}, saved ${formatFullDateTime(existing.createdAt)}.` : 'No disclosure yet.'}
          </p>
          <RichTextEditor
            initialHtml={existing?.html ?? ''}
            resetKey={`${key(chosen)}-${resetKey}`}
            onChange={setDraft}
            ariaLabel="Disclosure text"
          />
          <Button
            text={`Save as version ${(existing?.version ?? 0) + 1}`}
            intent="primary"
            loading={saving.loading}
            onClick={() => void submit()}
          />
        </section>
      )}
    </Page>
  );
}

export const DISCLOSURES_SCREEN_QUERY = gql`
  query DisclosuresScreen {
    disclosures {
      scopeType
      scopeId
      scopeName
      version
      html
      createdAt
      createdByName
    }
    allChannels {
      _id
      name
    }
    desks {
      _id
      name
    }
  }
`;

export const EDIT_DISCLOSURE_MUTATION = gql`
  mutation EditDisclosure($item: DisclosureInput!) {
    editDisclosure(item: $item) {
      scopeType
      scopeId
      version
      html
    }
  }
`;
