//! A promotional content block: `<div data-promotional-content-id="<24 hex>" class="editor-promotional-content">`,
//! which the reader page fills in. The editor shows the content's name, from the
//! `promotionalContent` the screen passes (PromotionalContentNames).
import { $create, $getDocument, $getState, $setState, createState, DecoratorNode, type DOMExportOutput, type LexicalNode } from 'lexical';
import { createContext, useContext, type JSX } from 'react';
import { isPromotionalContentId } from './rules';
import { BlockFrame } from './BlockFrame';

const idState = createState('promotionalContentId', { parse: (value: unknown) => (typeof value === 'string' ? value : '') });

export const PROMOTIONAL_CONTENT_CLASS = 'editor-promotional-content';

/** Names of the promotional content the screen offers, by id. */
export const PromotionalContentNames = createContext<ReadonlyMap<string, string>>(new Map());

function PromotionalContentBlock({ nodeKey, id }: { nodeKey: string; id: string }) {
  const name = useContext(PromotionalContentNames).get(id);
  const label = `Promotional content: ${name ?? id}`;
  return (
    <BlockFrame nodeKey={nodeKey} label={label}>
      <div className="insights-richtext-placeholder">{label}</div>
    </BlockFrame>
  );
}

export class PromotionalContentNode extends DecoratorNode<JSX.Element> {
  $config() {
    return this.config('insights-promotional-content', {
      extends: DecoratorNode,
      stateConfigs: [{ stateConfig: idState, flat: true }],
      importDOM: {
        div: (element: HTMLElement) =>
          isPromotionalContentId(element.getAttribute('data-promotional-content-id') ?? '')
            ? { conversion: $convertPromotionalContentElement, priority: 2 as const }
            : null,
      },
    });
  }

  getPromotionalContentId(): string {
    return $getState(this, idState);
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
    const div = $getDocument().createElement('div');
    div.setAttribute('data-promotional-content-id', this.getPromotionalContentId());
    div.className = PROMOTIONAL_CONTENT_CLASS;
    return { element: div };
  }

  decorate(): JSX.Element {
    return <PromotionalContentBlock nodeKey={this.getKey()} id={this.getPromotionalContentId()} />;
  }
}

function $convertPromotionalContentElement(element: HTMLElement) {
  return { node: $createPromotionalContentNode(element.getAttribute('data-promotional-content-id') ?? '') };
}

export function $createPromotionalContentNode(id: string): PromotionalContentNode {
  return $setState($create(PromotionalContentNode), idState, id);
}

export function $isPromotionalContentNode(node: LexicalNode | null | undefined): node is PromotionalContentNode {
  return node instanceof PromotionalContentNode;
}
