//! The article body editor (spec 2 "Article editor", "Editor uploads"), built on Lexical: rich text
//! with headings, lists, links and line heights, uploaded images and PDF pages, Vimeo, Spotify and
//! Buzzsprout embeds, promotional content blocks and Tableau charts. It reads and writes HTML that
//! the server's sanitiser keeps as it is (html.ts). Publisher screens load it lazily; nothing else
//! may import Lexical.
import { LexicalComposer, type InitialConfigType } from '@lexical/react/LexicalComposer';
import { ContentEditable } from '@lexical/react/LexicalContentEditable';
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary';
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin';
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin';
import { ListPlugin } from '@lexical/react/LexicalListPlugin';
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin';
import { useMemo, useState } from 'react';
import { logger } from '../../lib/logger';
import { $loadHtml, EDITOR_HTML, EDITOR_NODES } from './html';
import { EditablePlugin, HtmlPlugin, LineHeightPlugin } from './plugins';
import { PromotionalContentNames } from './PromotionalContentNode';
import { isAllowedLinkUrl } from './rules';
import { EDITOR_THEME } from './theme';
import { Toolbar } from './Toolbar';
import './RichTextEditor.css';

export interface RichTextEditorProps {
  /** The HTML to start from (sanitised by the server). Read once on mount and whenever `resetKey` changes. */
  initialHtml: string;
  /** Changing it reloads the editor from `initialHtml` (e.g. after 'Resume editing' or a refetch). */
  resetKey?: string | number;
  /** Called with the body's HTML after each change (not debounced). */
  onChange: (html: string) => void;
  /** Offers the Tableau chart button (the user has tableauAccess). */
  chartsEnabled?: boolean;
  /** Promotional content the editor can insert as a block. */
  promotionalContent?: readonly { _id: string; name: string }[];
  readOnly?: boolean;
  /** Accessible name of the editable area. */
  ariaLabel?: string;
}

const NO_PROMOTIONAL_CONTENT: readonly { _id: string; name: string }[] = [];

export function RichTextEditor({
  initialHtml,
  resetKey,
  onChange,
  chartsEnabled = false,
  promotionalContent = NO_PROMOTIONAL_CONTENT,
  readOnly = false,
  ariaLabel = 'Article body',
}: RichTextEditorProps) {
  // Read once: the composer creates its editor from the first config.
  const [initialConfig] = useState<InitialConfigType>(() => ({
    namespace: 'insights-article-body',
    theme: EDITOR_THEME,
    nodes: EDITOR_NODES,
    html: EDITOR_HTML,
    editable: !readOnly,
    editorState: (editor) => $loadHtml(editor, initialHtml),
    // Lexical has already undone the failed update; the user keeps editing.
    onError: (error) => logger.error(`Article body editor: ${error.message}`, { stack: error.stack }),
  }));
  const names = useMemo(() => new Map(promotionalContent.map((content) => [content._id, content.name])), [promotionalContent]);

  return (
    <div className={`insights-richtext${readOnly ? ' is-read-only' : ''}`}>
      <LexicalComposer initialConfig={initialConfig}>
        <PromotionalContentNames.Provider value={names}>
          {!readOnly && <Toolbar chartsEnabled={chartsEnabled} promotionalContent={promotionalContent} />}
          <RichTextPlugin
            contentEditable={
              <ContentEditable
                className="insights-richtext-content"
                role="textbox"
                aria-label={ariaLabel}
                aria-multiline
                aria-readonly={readOnly || undefined}
              />
            }
            ErrorBoundary={LexicalErrorBoundary}
          />
          <HistoryPlugin />
          <ListPlugin />
          <LinkPlugin validateUrl={isAllowedLinkUrl} />
          <LineHeightPlugin />
          <EditablePlugin editable={!readOnly} />
          <HtmlPlugin initialHtml={initialHtml} resetKey={resetKey} onChange={onChange} />
        </PromotionalContentNames.Provider>
      </LexicalComposer>
    </div>
  );
}
