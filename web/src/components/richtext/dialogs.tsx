//! The toolbar's dialogs: a link's address, an embed's URL, a chart's id. Each checks what was
//! typed and says what is wrong under the field; the toolbar does the inserting.
import { useState } from 'react';
import { Button } from '../Button';
import { CheckboxField, TextField } from '../admin/fields';
import { EMBED_REFUSAL, parseEmbedUrl, type Embed } from './embeds';
import { CHART_ID_RULE, isChartId, LINK_RULE, normalizeLinkUrl } from './rules';
import { ToolbarDialog } from './ToolbarDialog';

const noop = () => {};

export interface LinkValue {
  url: string;
  newTab: boolean;
  /** The text to link when nothing was selected. */
  text: string;
}

export interface LinkDialogProps {
  /** The link being edited; null to add one. */
  existing: { url: string; newTab: boolean } | null;
  /** Nothing is selected: ask for the text to link as well. */
  needsText: boolean;
  onApply: (link: LinkValue) => void;
  onRemove: () => void;
  onCancel: () => void;
}

export function LinkDialog({ existing, needsText, onApply, onRemove, onCancel }: LinkDialogProps) {
  const [url, setUrl] = useState(existing?.url ?? '');
  const [text, setText] = useState('');
  const [newTab, setNewTab] = useState(existing?.newTab ?? true);
  const [error, setError] = useState<string>();

  const submit = () => {
    const normalized = normalizeLinkUrl(url);
    if (normalized) onApply({ url: normalized, newTab, text: text.trim() || normalized });
    else setError(LINK_RULE);
  };

  return (
    <ToolbarDialog
      title={existing ? 'Edit link' : 'Insert link'}
      submitText={existing ? 'Update link' : 'Insert link'}
      onSubmit={submit}
      onCancel={onCancel}
      actions={existing && <Button text="Remove link" icon="unlink" variant="minimal" intent="danger" onClick={onRemove} />}
    >
      <TextField
        label="Address"
        name="link-url"
        placeholder="https://"
        value={url}
        error={error}
        onBlur={noop}
        onChange={(value) => {
          setUrl(value);
          setError(undefined);
        }}
      />
      {needsText && <TextField label="Text" name="link-text" value={text} onChange={setText} onBlur={noop} />}
      <CheckboxField label="Open in a new tab" name="link-new-tab" value={newTab} onChange={setNewTab} onBlur={noop} />
    </ToolbarDialog>
  );
}

export interface EmbedDialogProps {
  onApply: (embed: Embed) => void;
  onCancel: () => void;
}

export function EmbedDialog({ onApply, onCancel }: EmbedDialogProps) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string>();

  const submit = () => {
    const embed = parseEmbedUrl(url);
    if (embed) onApply(embed);
    else setError(EMBED_REFUSAL);
  };

  return (
    <ToolbarDialog title="Embed video or audio" submitText="Embed" onSubmit={submit} onCancel={onCancel}>
      <TextField
        label="Vimeo, Spotify or Buzzsprout link"
        name="embed-url"
        placeholder="https://vimeo.com/…"
        value={url}
        error={error}
        onBlur={noop}
        onChange={(value) => {
          setUrl(value);
          setError(undefined);
        }}
      />
    </ToolbarDialog>
  );
}

export interface ChartDialogProps {
  onApply: (chartId: string) => void;
  onCancel: () => void;
}

export function ChartDialog({ onApply, onCancel }: ChartDialogProps) {
  const [chartId, setChartId] = useState('');
  const [error, setError] = useState<string>();

  const submit = () => {
    const id = chartId.trim();
    if (isChartId(id)) onApply(id);
    else setError(CHART_ID_RULE);
  };

  return (
    <ToolbarDialog title="Insert Tableau chart" submitText="Insert chart" onSubmit={submit} onCancel={onCancel}>
      <TextField
        label="Chart id"
        name="chart-id"
        maxLength={64}
        value={chartId}
        error={error}
        onBlur={noop}
        onChange={(value) => {
          setChartId(value);
          setError(undefined);
        }}
      />
    </ToolbarDialog>
  );
}
