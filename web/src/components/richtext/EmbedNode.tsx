//! A Vimeo, Spotify or Buzzsprout player (see ../embeds.ts), a block exported as
//! `<iframe src="…" width="100%" height="…" frameborder="0" allow="…" allowfullscreen loading="lazy">`.
//! Only the player URL is kept: the size and title follow from it, and an iframe of any other site
//! (pasted, say) is dropped on import.
import { $create, $getDocument, $getState, $setState, createState, DecoratorNode, type DOMExportOutput, type LexicalNode } from 'lexical';
import type { JSX } from 'react';
import { parseEmbedUrl, type Embed } from './embeds';
import { BlockFrame } from './BlockFrame';

const srcState = createState('src', { parse: (value: unknown) => (typeof value === 'string' ? value : '') });

export const EMBED_ALLOW = 'autoplay; fullscreen; picture-in-picture';

export class EmbedNode extends DecoratorNode<JSX.Element> {
  $config() {
    return this.config('insights-embed', {
      extends: DecoratorNode,
      stateConfigs: [{ stateConfig: srcState, flat: true }],
      importDOM: {
        iframe: (element: HTMLElement) =>
          parseEmbedUrl(element.getAttribute('src') ?? '') ? { conversion: $convertIframeElement, priority: 1 as const } : null,
      },
    });
  }

  /** The player; null if the stored URL is not one (never the case for nodes made here). */
  getEmbed(): Embed | null {
    return parseEmbedUrl($getState(this, srcState));
  }

  isInline(): boolean {
    return false;
  }

  createDOM(): HTMLElement {
    const div = $getDocument().createElement('div');
    // Shown, not typed in: the caret goes around the block.
    div.contentEditable = 'false';
    return div;
  }

  updateDOM(): boolean {
    return false;
  }

  exportDOM(): DOMExportOutput {
    const embed = this.getEmbed();
    if (!embed) return { element: null };
    const iframe = $getDocument().createElement('iframe');
    iframe.setAttribute('src', embed.src);
    iframe.setAttribute('width', '100%');
    iframe.setAttribute('height', String(embed.height));
    iframe.setAttribute('title', embed.title);
    iframe.setAttribute('frameborder', '0');
    iframe.setAttribute('allow', EMBED_ALLOW);
    iframe.setAttribute('allowfullscreen', '');
    iframe.setAttribute('loading', 'lazy');
    return { element: iframe };
  }

  decorate(): JSX.Element {
    const embed = this.getEmbed();
    return (
      <BlockFrame nodeKey={this.getKey()} label={embed?.title ?? 'embed'}>
        {embed && (
          <iframe
            className="insights-richtext-embed"
            src={embed.src}
            width="100%"
            height={embed.height}
            title={embed.title}
            // `allow` grants fullscreen already; the exported `allowfullscreen` is for older readers.
            allow={EMBED_ALLOW}
            loading="lazy"
          />
        )}
      </BlockFrame>
    );
  }
}

function $convertIframeElement(element: HTMLElement) {
  const embed = parseEmbedUrl(element.getAttribute('src') ?? '');
  return { node: embed ? $createEmbedNode(embed) : null };
}

export function $createEmbedNode(embed: Embed): EmbedNode {
  return $setState($create(EmbedNode), srcState, embed.src);
}

export function $isEmbedNode(node: LexicalNode | null | undefined): node is EmbedNode {
  return node instanceof EmbedNode;
}
