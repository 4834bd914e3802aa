//! The formatting toolbar above the body: undo/redo, block type, bold/italic/underline, lists, link,
//! line height, and the inserts (image, PDF pages, embed, chart, promotional content). Buttons have
//! names and tooltips, toggles `aria-pressed`; ←/→ move between the controls. Actions apply to the
//! selection the user left in the editor (see selection.ts).
import { $createLinkNode, $isLinkNode, $toggleLink, type LinkAttributes, type LinkNode } from '@lexical/link';
import {
  $isListItemNode,
  $isListNode,
  INSERT_ORDERED_LIST_COMMAND,
  INSERT_UNORDERED_LIST_COMMAND,
  REMOVE_LIST_COMMAND,
} from '@lexical/list';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { $createHeadingNode, $isHeadingNode, type HeadingTagType } from '@lexical/rich-text';
import { $copyBlockFormatIndent, $setBlocksType } from '@lexical/selection';
import { $insertNodeToNearestRoot, mergeRegister } from '@lexical/utils';
import {
  BoldIcon,
  ChartIcon,
  DocumentIcon,
  ItalicIcon,
  LinkIcon,
  MediaIcon,
  NumberedListIcon,
  PropertiesIcon,
  RedoIcon,
  UnderlineIcon,
  UndoIcon,
  VideoIcon,
} from '@blueprintjs/icons';
import {
  $createParagraphNode,
  $createTextNode,
  $findMatchingParent,
  $getSelection,
  $insertNodes,
  $isRangeSelection,
  $setState,
  CAN_REDO_COMMAND,
  CAN_UNDO_COMMAND,
  COMMAND_PRIORITY_LOW,
  FORMAT_TEXT_COMMAND,
  IS_APPLE,
  REDO_COMMAND,
  UNDO_COMMAND,
  type BaseSelection,
  type ElementNode,
  type LexicalNode,
  type TextFormatType,
} from 'lexical';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { DropdownMenu, MenuAction } from '../DropdownMenu';
import { showToast } from '../Toaster';
import { uploadedImageUrl, useImageUpload } from '../../lib/upload';
import { $createChartNode } from './ChartNode';
import { ChartDialog, EmbedDialog, ImageDialog, LinkDialog, type LinkValue } from './dialogs';
import { $createEmbedNode } from './EmbedNode';
import type { Embed } from './embeds';
import { $createImageNode } from './ImageNode';
import {
  $getLineHeight,
  $selectedBlocks,
  $setLineHeight,
  LINE_HEIGHTS,
  lineHeightState,
  parseLineHeight,
  type LineHeight,
} from './lineHeight';
import { $createPromotionalContentNode } from './PromotionalContentNode';
import { promotionalContentRefusal } from './rules';
import { $selectionNodeTypes, $selectionOr } from './selection';
import { ToolbarButton } from './ToolbarButton';
import { IMAGE_ACCEPT, imageRefusal, PDF_ACCEPT, pdfPageAlt, pdfRefusal, usePdfUpload } from './uploads';

type BlockType = 'paragraph' | 'h1' | 'h2' | 'h3' | 'other';

const BLOCK_TYPES: readonly { value: BlockType; label: string }[] = [
  { value: 'paragraph', label: 'Paragraph' },
  { value: 'h1', label: 'Heading 1' },
  { value: 'h2', label: 'Heading 2' },
  { value: 'h3', label: 'Heading 3' },
];

interface SelectionState {
  blockType: BlockType;
  list: 'bullet' | 'number' | null;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  link: { url: string; newTab: boolean } | null;
  lineHeight: LineHeight;
  collapsed: boolean;
}

const INITIAL_STATE: SelectionState = {
  blockType: 'paragraph',
  list: null,
  bold: false,
  italic: false,
  underline: false,
  link: null,
  lineHeight: '',
  collapsed: true,
};

function $linkOf(node: LexicalNode): LinkNode | null {
  return $findMatchingParent(node, $isLinkNode);
}

/** The block type menu's value; 'other' for blocks it does not offer (quotes, h4–h6 from pasted HTML). */
function blockTypeOf(block: LexicalNode | null): BlockType {
  if ($isHeadingNode(block)) {
    const tag = block.getTag();
    return tag === 'h1' || tag === 'h2' || tag === 'h3' ? tag : 'other';
  }
  return block?.getType() === 'quote' ? 'other' : 'paragraph';
}

/** What the toolbar shows for the current selection; null when there is no text selection. */
function $readSelectionState(): SelectionState | null {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) return null;
  const anchor = selection.anchor.getNode();
  const listItem = $findMatchingParent(anchor, $isListItemNode);
  const list = listItem?.getParent();
  const block = $findMatchingParent(anchor, (node) => $isHeadingNode(node) || node.getType() === 'paragraph' || node.getType() === 'quote');
  const link = $linkOf(anchor) ?? $linkOf(selection.focus.getNode());
  const firstBlock = $selectedBlocks(selection)[0];
  return {
    blockType: blockTypeOf(block),
    list: $isListNode(list) ? (list.getListType() === 'number' ? 'number' : 'bullet') : null,
    bold: selection.hasFormat('bold'),
    italic: selection.hasFormat('italic'),
    underline: selection.hasFormat('underline'),
    link: link ? { url: link.getURL(), newTab: link.getTarget() === '_blank' } : null,
    lineHeight: firstBlock ? $getLineHeight(firstBlock) : '',
    collapsed: selection.isCollapsed(),
  };
}

/** Keeps the line height when a block changes type, as it keeps alignment and indent. */
function $copyBlockSettings(from: ElementNode, to: ElementNode): void {
  $copyBlockFormatIndent(from, to);
  $setState(to, lineHeightState, $getLineHeight(from));
}

function linkAttributes(link: LinkValue): LinkAttributes {
  const newTab = link.newTab && !link.url.startsWith('mailto:');
  return { target: newTab ? '_blank' : null, rel: 'noopener noreferrer' };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const MOD = IS_APPLE ? '⌘' : 'Ctrl+';

export interface ToolbarProps {
  chartsEnabled: boolean;
  promotionalContent: readonly { _id: string; name: string }[];
}

type OpenDialog = 'link' | 'embed' | 'chart' | 'image' | null;

export function Toolbar({ chartsEnabled, promotionalContent }: ToolbarProps) {
  const [editor] = useLexicalComposerContext();
  const [state, setState] = useState(INITIAL_STATE);
  const [canUndo, setCanUndo] = useState(false);
  const [canRedo, setCanRedo] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [uploading, setUploading] = useState<'image' | 'pdf' | null>(null);
  /** The image chosen, waiting for its description (ImageDialog). */
  const [chosenImage, setChosenImage] = useState<File | null>(null);
  /** The last selection in the editor: focusing a dialog's field clears the editor's own. */
  const savedSelection = useRef<BaseSelection | null>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  const pdfInput = useRef<HTMLInputElement>(null);
  const uploadImage = useImageUpload();
  const uploadPdf = usePdfUpload();

  useEffect(
    () =>
      mergeRegister(
        editor.registerUpdateListener(() => {
          editor.read(() => {
            const selection = $getSelection();
            if (selection) savedSelection.current = selection.clone();
            const next = $readSelectionState();
            // Most updates are keystrokes that change none of it: keep the toolbar as it is.
            if (next) setState((current) => (JSON.stringify(current) === JSON.stringify(next) ? current : next));
          });
        }),
        editor.registerCommand(
          CAN_UNDO_COMMAND,
          (payload) => {
            setCanUndo(payload);
            return false;
          },
          COMMAND_PRIORITY_LOW,
        ),
        editor.registerCommand(
          CAN_REDO_COMMAND,
          (payload) => {
            setCanRedo(payload);
            return false;
          },
          COMMAND_PRIORITY_LOW,
        ),
      ),
    [editor],
  );

  /** Runs `$action` on the user's selection, in one editor update. */
  const act = useCallback(
    ($action: (selection: BaseSelection) => void, options?: { focus?: boolean }) => {
      editor.update(() => $action($selectionOr(savedSelection.current)));
      if (options?.focus) editor.focus();
    },
    [editor],
  );

  const closeDialog = () => {
    setDialog(null);
    editor.focus();
  };

  const format = (type: TextFormatType) => act(() => editor.dispatchCommand(FORMAT_TEXT_COMMAND, type));

  const setBlockType = (type: BlockType) =>
    act((selection) => {
      if (type === 'paragraph') $setBlocksType(selection, () => $createParagraphNode(), $copyBlockSettings);
      else if (type !== 'other') $setBlocksType(selection, () => $createHeadingNode(type as HeadingTagType), $copyBlockSettings);
    });

  const toggleList = (type: 'bullet' | 'number') =>
    act(() => {
      if (state.list === type) editor.dispatchCommand(REMOVE_LIST_COMMAND, undefined);
      else editor.dispatchCommand(type === 'bullet' ? INSERT_UNORDERED_LIST_COMMAND : INSERT_ORDERED_LIST_COMMAND, undefined);
    });

  const applyLink = (link: LinkValue) => {
    act(
      (selection) => {
        const attributes = linkAttributes(link);
        const existing = $isRangeSelection(selection) ? $linkOf(selection.anchor.getNode()) : null;
        if (existing) {
          existing
            .setURL(link.url)
            .setTarget(attributes.target ?? null)
            .setRel(attributes.rel ?? null);
        } else if ($isRangeSelection(selection) && selection.isCollapsed()) {
          $insertNodes([$createLinkNode(link.url, attributes).append($createTextNode(link.text))]);
        } else {
          $toggleLink({ url: link.url, ...attributes });
        }
      },
      { focus: true },
    );
    setDialog(null);
  };

  const removeLink = () => {
    act(
      (selection) => {
        const link = $isRangeSelection(selection) ? $linkOf(selection.anchor.getNode()) : null;
        if (!link) return;
        for (const child of link.getChildren()) link.insertBefore(child);
        link.remove();
      },
      { focus: true },
    );
    setDialog(null);
  };

  const insertEmbed = (embed: Embed) => {
    act(() => $insertNodeToNearestRoot($createEmbedNode(embed)), { focus: true });
    setDialog(null);
  };

  const insertChart = (chartId: string) => {
    act(() => $insertNodeToNearestRoot($createChartNode(chartId)), { focus: true });
    setDialog(null);
  };

  const insertPromotionalContent = (id: string) =>
    act((selection) => {
      const refusal = promotionalContentRefusal($selectionNodeTypes(selection));
      if (refusal) void showToast({ message: refusal, intent: 'warning' });
      else $insertNodeToNearestRoot($createPromotionalContentNode(id));
    });

  const chooseImage = (file: File) => {
    const refusal = imageRefusal(file);
    if (refusal) return void showToast({ message: refusal, intent: 'warning' });
    setChosenImage(file);
    setDialog('image');
  };

  const insertImage = async (file: File, alt: string) => {
    setDialog(null);
    setChosenImage(null);
    setUploading('image');
    try {
      const fileName = await uploadImage(file);
      act(() => $insertNodes([$createImageNode(uploadedImageUrl(fileName), alt)]), { focus: true });
    } catch (error) {
      void showToast({ message: errorText(error), intent: 'danger' });
    } finally {
      setUploading(null);
    }
  };

  const insertPdf = async (file: File) => {
    const refusal = pdfRefusal(file);
    if (refusal) return void showToast({ message: refusal, intent: 'warning' });
    setUploading('pdf');
    try {
      const pages = await uploadPdf(file);
      // Each page in its own paragraph, one after the other, named by its file and number (the
      // reader's page offers each page's text beside it: the server reads it at upload).
      act(() =>
        pages.forEach((fileName, i) =>
          $insertNodeToNearestRoot($createImageNode(uploadedImageUrl(fileName), pdfPageAlt(file.name, i + 1, pages.length))),
        ),
      );
    } catch (error) {
      void showToast({ message: errorText(error), intent: 'danger' });
    } finally {
      setUploading(null);
    }
  };

  /** ←/→ move between the toolbar's controls (not inside a select, where they change the value). */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') || event.target instanceof HTMLSelectElement) return;
    if (event.target instanceof HTMLInputElement) return;
    const controls = [
      ...event.currentTarget.querySelectorAll<HTMLElement>(
        '.insights-richtext-tools button:not(:disabled), .insights-richtext-tools select',
      ),
    ];
    const index = controls.indexOf(event.target as HTMLElement);
    if (index < 0) return;
    event.preventDefault();
    controls[(index + (event.key === 'ArrowRight' ? 1 : -1) + controls.length) % controls.length]?.focus();
  };

  return (
    <div className="insights-richtext-toolbar" onKeyDown={onKeyDown}>
      <div role="toolbar" aria-label="Formatting" className="insights-richtext-tools">
        <div className="insights-richtext-group">
          <ToolbarButton
            label="Undo"
            shortcut={`${MOD}Z`}
            icon={<UndoIcon />}
            disabled={!canUndo}
            onClick={() => editor.dispatchCommand(UNDO_COMMAND, undefined)}
          />
          <ToolbarButton
            label="Redo"
            shortcut={IS_APPLE ? '⇧⌘Z' : 'Ctrl+Y'}
            icon={<RedoIcon />}
            disabled={!canRedo}
            onClick={() => editor.dispatchCommand(REDO_COMMAND, undefined)}
          />
        </div>
        <div className="insights-richtext-group">
          <select
            className="insights-richtext-select"
            aria-label="Block type"
            title="Block type"
            value={state.blockType}
            onChange={(event) => setBlockType(event.currentTarget.value as BlockType)}
          >
            {BLOCK_TYPES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
            {state.blockType === 'other' && (
              <option value="other" disabled>
                Other
              </option>
            )}
          </select>
        </div>
        <div className="insights-richtext-group">
          <ToolbarButton label="Bold" shortcut={`${MOD}B`} icon={<BoldIcon />} pressed={state.bold} onClick={() => format('bold')} />
          <ToolbarButton
            label="Italic"
            shortcut={`${MOD}I`}
            icon={<ItalicIcon />}
            pressed={state.italic}
            onClick={() => format('italic')}
          />
          <ToolbarButton
            label="Underline"
            shortcut={`${MOD}U`}
            icon={<UnderlineIcon />}
            pressed={state.underline}
            onClick={() => format('underline')}
          />
        </div>
        <div className="insights-richtext-group">
          <ToolbarButton
            label="Bulleted list"
            icon={<PropertiesIcon />}
            pressed={state.list === 'bullet'}
            onClick={() => toggleList('bullet')}
          />
          <ToolbarButton
            label="Numbered list"
            icon={<NumberedListIcon />}
            pressed={state.list === 'number'}
            onClick={() => toggleList('number')}
          />
        </div>
        <div className="insights-richtext-group">
          <ToolbarButton
            label={state.link ? 'Edit link' : 'Link'}
            icon={<LinkIcon />}
            pressed={!!state.link}
            onClick={() => setDialog('link')}
          />
          <select
            className="insights-richtext-select"
            aria-label="Line height"
            title="Line height"
            value={state.lineHeight}
            onChange={(event) => act((selection) => $setLineHeight(selection, parseLineHeight(event.currentTarget.value)))}
          >
            <option value="">Default</option>
            {LINE_HEIGHTS.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div className="insights-richtext-group">
          <ToolbarButton
            label="Insert image"
            icon={<MediaIcon />}
            busy={uploading === 'image'}
            onClick={() => imageInput.current?.click()}
          />
          <ToolbarButton
            label="Insert PDF pages"
            icon={<DocumentIcon />}
            busy={uploading === 'pdf'}
            onClick={() => pdfInput.current?.click()}
          />
          <ToolbarButton label="Embed video or audio" icon={<VideoIcon />} onClick={() => setDialog('embed')} />
          {chartsEnabled && <ToolbarButton label="Tableau chart" icon={<ChartIcon />} onClick={() => setDialog('chart')} />}
        </div>
      </div>
      {promotionalContent.length > 0 && (
        <DropdownMenu label="Insert promotional content" text="Promotional content" icon="add">
          {promotionalContent.map((content) => (
            <MenuAction key={content._id} text={content.name} onClick={() => insertPromotionalContent(content._id)} />
          ))}
        </DropdownMenu>
      )}
      {(uploading === 'image' || uploading === 'pdf') && (
        <span className="insights-richtext-status" role="status">
          {uploading === 'pdf' ? 'Uploading the PDF…' : 'Uploading the image…'}
        </span>
      )}
      <input
        ref={imageInput}
        type="file"
        accept={IMAGE_ACCEPT}
        className="insights-richtext-file"
        aria-label="Image file"
        tabIndex={-1}
        onChange={(event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          input.value = '';
          if (file) chooseImage(file);
        }}
      />
      <input
        ref={pdfInput}
        type="file"
        accept={PDF_ACCEPT}
        className="insights-richtext-file"
        aria-label="PDF file"
        tabIndex={-1}
        onChange={(event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          input.value = '';
          if (file) void insertPdf(file);
        }}
      />
      {dialog === 'link' && (
        <LinkDialog
          existing={state.link}
          needsText={state.collapsed && !state.link}
          onApply={applyLink}
          onRemove={removeLink}
          onCancel={closeDialog}
        />
      )}
      {dialog === 'image' && chosenImage && (
        <ImageDialog fileName={chosenImage.name} onApply={(alt) => void insertImage(chosenImage, alt)} onCancel={closeDialog} />
      )}
      {dialog === 'embed' && <EmbedDialog onApply={insertEmbed} onCancel={closeDialog} />}
      {dialog === 'chart' && <ChartDialog onApply={insertChart} onCancel={closeDialog} />}
    </div>
  );
}
