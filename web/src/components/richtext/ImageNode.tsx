//! An uploaded image, inline in a paragraph: `<img src="/uploads/<fileName>" alt="">`. Only our
//! uploads are accepted (the server drops any other image), so a pasted outside image is left out.
import {
  $create,
  $getDocument,
  $getState,
  $setState,
  addClassNamesToElement,
  createState,
  DecoratorNode,
  type DOMConversionMap,
  type DOMExportOutput,
  type EditorConfig,
  type LexicalNode,
} from 'lexical';
import type { JSX } from 'react';
import { UploadedImage } from '../../lib/UploadedImage';
import { BlockFrame } from './BlockFrame';

const stringValue = (value: unknown) => (typeof value === 'string' ? value : '');
const srcState = createState('src', { parse: stringValue });
const altState = createState('alt', { parse: stringValue });

/** New names are 128 random bits (32 hex); files stored before keep their id-shaped 24. */
const UPLOAD_NAME = /^([0-9a-f]{24}|[0-9a-f]{32})\.(png|jpg|gif)$/;

/** `/uploads/<name>` for one of our uploads (relative, or absolute on this site), else null. */
export function uploadSrc(src: string | null): string | null {
  if (!src) return null;
  let url: URL;
  try {
    url = new URL(src, window.location.origin);
  } catch {
    return null;
  }
  const name = url.pathname.startsWith('/uploads/') ? url.pathname.slice('/uploads/'.length) : '';
  const ours = url.origin === window.location.origin && !url.search && !url.hash && UPLOAD_NAME.test(name);
  return ours ? `/uploads/${name}` : null;
}

export class ImageNode extends DecoratorNode<JSX.Element> {
  $config() {
    return this.config('insights-image', {
      extends: DecoratorNode,
      stateConfigs: [
        { stateConfig: srcState, flat: true },
        { stateConfig: altState, flat: true },
      ],
      importDOM: {
        img: (element: HTMLElement) =>
          uploadSrc(element.getAttribute('src')) ? { conversion: $convertImageElement, priority: 1 as const } : null,
      } satisfies DOMConversionMap,
    });
  }

  getSrc(): string {
    return $getState(this, srcState);
  }

  getAlt(): string {
    return $getState(this, altState);
  }

  isInline(): boolean {
    return true;
  }

  createDOM(config: EditorConfig): HTMLElement {
    const span = $getDocument().createElement('span');
    addClassNamesToElement(span, config.theme.image);
    // The caret goes around an image, never into its frame.
    span.contentEditable = 'false';
    return span;
  }

  updateDOM(): boolean {
    return false;
  }

  exportDOM(): DOMExportOutput {
    const img = $getDocument().createElement('img');
    img.setAttribute('src', this.getSrc());
    img.setAttribute('alt', this.getAlt());
    return { element: img };
  }

  decorate(): JSX.Element {
    return (
      <BlockFrame nodeKey={this.getKey()} label="image" inline>
        <UploadedImage path={this.getSrc()} alt={this.getAlt()} className="insights-richtext-image" />
      </BlockFrame>
    );
  }
}

function $convertImageElement(element: HTMLElement) {
  const src = uploadSrc(element.getAttribute('src'));
  return { node: src ? $createImageNode(src, element.getAttribute('alt') ?? '') : null };
}

export function $createImageNode(src: string, alt = ''): ImageNode {
  const node = $create(ImageNode);
  $setState(node, srcState, src);
  return $setState(node, altState, alt);
}

export function $isImageNode(node: LexicalNode | null | undefined): node is ImageNode {
  return node instanceof ImageNode;
}
