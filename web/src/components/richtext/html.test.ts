import { registerList } from '@lexical/list';
import { registerRichText } from '@lexical/rich-text';
import { $getRoot, $getState, createEditor, type ElementNode, type LexicalEditor } from 'lexical';
import { describe, expect, it } from 'vitest';
import { $exportHtml, $loadHtml, EDITOR_HTML, EDITOR_NODES, tidyHtml } from './html';
import { $isImageNode } from './ImageNode';
import { lineHeightState } from './lineHeight';
import { EDITOR_THEME } from './theme';

function headlessEditor(): LexicalEditor {
  const editor = createEditor({
    namespace: 'test',
    nodes: EDITOR_NODES,
    html: EDITOR_HTML,
    theme: EDITOR_THEME,
    onError: (error) => {
      throw error;
    },
  });
  registerRichText(editor);
  registerList(editor);
  return editor;
}

/** Loads `html` and exports it again. */
function roundTrip(html: string, editor = headlessEditor()): string {
  editor.update(() => $loadHtml(editor, html), { discrete: true });
  return editor.read(() => $exportHtml(editor));
}

const UPLOAD = '/uploads/5f9b2c3e1a2b3c4d5e6f7a8b.png';

describe('HTML round trip', () => {
  it('keeps an uploaded image', () => {
    const html = `<p class="editor-paragraph"><span style="white-space: pre-wrap;">Chart:</span><img src="${UPLOAD}" alt=""></p>`;
    expect(roundTrip(html)).toBe(html);
  });

  it('keeps an embed, in the form the server stores', () => {
    const html =
      '<iframe src="https://player.vimeo.com/video/76979871" width="100%" height="360" title="Vimeo video player" frameborder="0" ' +
      'allow="autoplay; fullscreen; picture-in-picture" allowfullscreen="" loading="lazy"></iframe>';
    expect(roundTrip(html)).toBe(html);
    expect(roundTrip('<iframe src="https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC"></iframe>')).toContain(
      '<iframe src="https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC" width="100%" height="152"',
    );
  });

  it('keeps a promotional content block and a chart block', () => {
    const html =
      '<div data-promotional-content-id="5f9b2c3e1a2b3c4d5e6f7a8b" class="editor-promotional-content"></div>' +
      '<div data-chart-id="sales-by-region_2024" class="editor-chart"></div>';
    expect(roundTrip(html)).toBe(html);
    // As the server may store them (its sample has no class).
    expect(roundTrip('<div data-chart-id="x1"></div>')).toBe('<div data-chart-id="x1" class="editor-chart"></div>');
  });

  it('keeps the line height of paragraphs, headings and list items', () => {
    const html =
      '<p class="editor-paragraph" style="line-height: 1.5;"><span style="white-space: pre-wrap;">a</span></p>' +
      '<h2 class="editor-h2" style="line-height: 2;"><span style="white-space: pre-wrap;">b</span></h2>' +
      '<ul class="editor-list-ul"><li value="1" class="editor-listitem" style="line-height: 1.2;"><span style="white-space: pre-wrap;">c</span></li></ul>' +
      '<p class="editor-paragraph"><span style="white-space: pre-wrap;">d</span></p>';
    const editor = headlessEditor();
    expect(roundTrip(html, editor)).toBe(html);
    editor.read(() => {
      const [p, , , last] = $getRoot().getChildren();
      expect($getState(p, lineHeightState)).toBe('1.5');
      expect($getState(last, lineHeightState)).toBe('');
    });
  });

  it('drops what the server would drop', () => {
    expect(roundTrip('<p style="line-height: 1.7; color: red;">x</p>')).toBe(
      '<p class="editor-paragraph"><span style="white-space: pre-wrap;">x</span></p>',
    );
    expect(roundTrip('<p>a<img src="https://cdn.example.com/a.png" alt="x"><img src="/uploads/../secret.png"></p>')).toBe(
      '<p class="editor-paragraph"><span style="white-space: pre-wrap;">a</span></p>',
    );
    expect(
      roundTrip('<iframe src="https://www.youtube.com/embed/x"></iframe><iframe src="https://player.vimeo.com.evil.com/video/1"></iframe>'),
    ).toBe('');
    expect(roundTrip('<div data-promotional-content-id="nope">text</div>')).toBe(
      '<p class="editor-paragraph"><span style="white-space: pre-wrap;">text</span></p>',
    );
  });

  it('gives links the rel the server writes', () => {
    expect(roundTrip('<p><a href="https://example.com/r" target="_blank">r</a></p>')).toBe(
      '<p class="editor-paragraph"><a href="https://example.com/r" target="_blank" class="editor-link" rel="noopener noreferrer">' +
        '<span style="white-space: pre-wrap;">r</span></a></p>',
    );
  });

  it('exports an empty document as an empty body', () => {
    expect(roundTrip('')).toBe('');
    expect(roundTrip('<p></p>')).toBe('');
  });
});

describe('tables', () => {
  it('become one paragraph per cell, without table markup', () => {
    const html =
      '<table><caption>Prices</caption><colgroup><col></colgroup><thead><tr><th>Fuel</th><th>Price</th></tr></thead>' +
      '<tbody><tr><td>Oil</td><td><b>82</b></td></tr><tr><td><p>Gas</p><p>LNG</p></td><td></td></tr></tbody></table>';
    const editor = headlessEditor();
    const out = roundTrip(html, editor);
    expect(out).not.toMatch(/<(table|thead|tbody|tr|td|th|caption|col)\b/);
    editor.read(() => {
      const root = $getRoot();
      expect(root.getChildren().map((node) => node.getType())).toEqual(Array(7).fill('paragraph'));
      expect(root.getChildren().map((node) => node.getTextContent())).toEqual(['Prices', 'Fuel', 'Price', 'Oil', '82', 'Gas', 'LNG']);
    });
  });

  it('around other content keep that content in place', () => {
    const editor = headlessEditor();
    roundTrip(`<p>Before</p><table><tr><td>A <img src="${UPLOAD}"></td></tr></table><p>After</p>`, editor);
    editor.read(() => {
      const children = $getRoot().getChildren();
      expect(children.map((node) => node.getType())).toEqual(['paragraph', 'paragraph', 'paragraph']);
      expect(children.map((node) => node.getTextContent())).toEqual(['Before', 'A', 'After']);
      expect($isImageNode((children[1] as ElementNode).getLastChild())).toBe(true);
    });
  });
});

describe('tidyHtml', () => {
  it('keeps only what the sanitiser allows', () => {
    expect(
      tidyHtml(
        '<p id="x" class="editor-paragraph bp6-text-muted" data-lexical-managed-linebreak="true" dir="ltr" style="padding-inline-start: calc(40px); line-height: 1.5">' +
          '<a href="javascript:alert(1)" target="_top" onclick="x()">x</a></p>',
      ),
    ).toBe('<p class="editor-paragraph" dir="ltr" style="line-height: 1.5;"><a rel="noopener noreferrer">x</a></p>');
  });
});
