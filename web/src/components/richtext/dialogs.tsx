//! The toolbar's dialogs: a link's address, an embed's URL, a Tableau chart from the project's list.
//! Each checks what was chosen and says what is wrong under the field; the toolbar does the inserting.
import { useState } from 'react';
import { Button } from '../Button';
import { CheckboxField, TextField } from '../admin/fields';
import { EMBED_REFUSAL, parseEmbedUrl, type Embed } from './embeds';
import { formatError } from '../../lib/errors';
import { useTableauCharts } from '../../lib/tableau/hooks';
import { useAuthenticatedImage } from '../../lib/useAuthenticatedImage';
import { isChartId, LINK_RULE, normalizeLinkUrl } from './rules';
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

export const DESCRIBE_IMAGE = 'Describe the image, or mark it as decorative';

export interface ImageDialogProps {
  /** The chosen file's name, shown so the author knows which image they describe. */
  fileName: string;
  /** The alternative text; empty for a decorative image. */
  onApply: (alt: string) => void;
  onCancel: () => void;
}

/**
 * Asked before an image goes in (WCAG 1.1.1): what it shows, for readers who cannot see it, or
 * that it is decorative (an empty alt, skipped by screen readers).
 */
export function ImageDialog({ fileName, onApply, onCancel }: ImageDialogProps) {
  const [alt, setAlt] = useState('');
  const [decorative, setDecorative] = useState(false);
  const [error, setError] = useState<string>();

  const submit = () => {
    if (decorative) onApply('');
    else if (alt.trim()) onApply(alt.trim());
    else setError(DESCRIBE_IMAGE);
  };

  return (
    <ToolbarDialog title={`Insert image ${fileName}`} submitText="Insert image" onSubmit={submit} onCancel={onCancel}>
      <TextField
        label="Alternative text"
        name="image-alt"
        placeholder="What the image shows"
        maxLength={250}
        value={alt}
        error={error}
        disabled={decorative}
        onBlur={noop}
        onChange={(value) => {
          setAlt(value);
          setError(undefined);
        }}
      />
      <CheckboxField
        label="Decorative image (no description)"
        name="image-decorative"
        value={decorative}
        onBlur={noop}
        onChange={(value) => {
          setDecorative(value);
          setError(undefined);
        }}
      />
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

export const CHOOSE_CHART = 'Choose a chart.';
export const NO_CHARTS = 'There are no charts in the Tableau project.';

/**
 * The chart picker: the views of the configured Tableau project (`getTableauCharts`) with their
 * preview images, searchable by title. A chart is picked with its radio (Enter inserts it) or
 * inserted at once with a double click.
 */
export function ChartDialog({ onApply, onCancel }: ChartDialogProps) {
  const { data, loading, error } = useTableauCharts();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const [problem, setProblem] = useState<string>();
  // Only ids the server's sanitiser keeps can be stored in a block.
  const charts = (data?.getTableauCharts ?? []).filter((chart) => isChartId(chart.id));
  const needle = search.trim().toLowerCase();
  const shown = needle ? charts.filter((chart) => chart.title.toLowerCase().includes(needle)) : charts;

  const submit = () => {
    if (selected) onApply(selected);
    else setProblem(CHOOSE_CHART);
  };

  return (
    <ToolbarDialog title="Insert Tableau chart" submitText="Insert chart" onSubmit={submit} onCancel={onCancel}>
      <TextField label="Search charts" name="chart-search" value={search} onChange={setSearch} onBlur={noop} />
      {loading && (
        <p role="status" className="insights-chart-picker-note">
          Loading charts…
        </p>
      )}
      {error && (
        <p role="alert" className="insights-chart-picker-note">
          {formatError(error)}
        </p>
      )}
      {data && charts.length === 0 && <p className="insights-chart-picker-note">{NO_CHARTS}</p>}
      {shown.length > 0 && (
        <div role="radiogroup" aria-label="Charts" className="insights-chart-picker">
          {shown.map((chart) => (
            <label key={chart.id} className="insights-chart-option" onDoubleClick={() => onApply(chart.id)}>
              <input
                type="radio"
                name="chart"
                value={chart.id}
                checked={selected === chart.id}
                onChange={() => {
                  setSelected(chart.id);
                  setProblem(undefined);
                }}
              />
              <ChartPreview image={chart.image} />
              <span className="insights-chart-option-title">{chart.title}</span>
            </label>
          ))}
        </div>
      )}
      {problem && (
        <p role="alert" className="insights-chart-picker-note is-error">
          {problem}
        </p>
      )}
    </ToolbarDialog>
  );
}

/** A chart's preview image (fetched with the bearer token); an empty frame while it loads. */
function ChartPreview({ image }: { image: string }) {
  const { url } = useAuthenticatedImage(image, 'Chart image');
  return <span className="insights-chart-preview">{url && <img src={url} alt="" />}</span>;
}
