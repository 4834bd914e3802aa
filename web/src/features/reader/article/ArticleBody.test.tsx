import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ArticleBody, type ArticleBlockRenderer } from './ArticleBody';

const promo: ArticleBlockRenderer = {
  attribute: 'data-promotional-content-id',
  render: (id) => (id === 'known' ? <strong>Promotion {id}</strong> : null),
};
const chart: ArticleBlockRenderer = { attribute: 'data-chart-id', render: (id) => <em>Chart {id}</em> };

describe('ArticleBody blocks', () => {
  it("draws each kind of block with its renderer, in the block's own place, replacing what the html held", () => {
    const html =
      '<p>First.</p><div data-promotional-content-id="known">old</div><p>Second.</p>' +
      '<div data-chart-id="c1"></div><div data-promotional-content-id="gone">old</div>';
    const { container } = render(<ArticleBody html={html} blocks={[promo, chart]} />);
    expect(container.querySelector('[data-promotional-content-id="known"]')).toHaveTextContent(/^Promotion known$/);
    expect(container.querySelector('[data-chart-id="c1"]')).toHaveTextContent(/^Chart c1$/);
    expect(container.querySelector('[data-promotional-content-id="gone"]')).toBeEmptyDOMElement();
    expect(screen.queryByText('old')).not.toBeInTheDocument();
    // The blocks stay between the paragraphs around them.
    const order = [...container.querySelectorAll('p, strong, em')].map((e) => e.textContent);
    expect(order).toEqual(['First.', 'Promotion known', 'Second.', 'Chart c1']);
  });

  it('finds the blocks again when the html changes, and leaves blocks without a renderer alone', () => {
    const { container, rerender } = render(<ArticleBody html='<div data-promotional-content-id="known"></div>' blocks={[promo]} />);
    expect(screen.getByText('Promotion known')).toBeInTheDocument();
    rerender(
      <ArticleBody html='<p>New.</p><div data-chart-id="c2">kept</div><div data-promotional-content-id="known"></div>' blocks={[promo]} />,
    );
    expect(screen.getAllByText('Promotion known')).toHaveLength(1);
    expect(container.querySelector('[data-promotional-content-id="known"]')).toHaveTextContent('Promotion known');
    expect(screen.getByText('kept')).toBeInTheDocument();
  });
});

describe('ArticleBody PDF pages', () => {
  const page1 = '0123456789abcdef0123456789abcdef.png';
  const page2 = 'fedcba9876543210fedcba9876543210.png';

  it("offers each PDF page's text under its image, as text, to everyone including screen readers", () => {
    const html =
      `<p><img src="/uploads/${page1}?u=x&amp;e=1&amp;s=sig" alt=""></p>` +
      `<p>Between.</p><p><img src="/uploads/${page2}" alt="Page 2 of 2, deck.pdf"></p><p><img src="/uploads/other.png" alt="x"></p>`;
    const pageTexts = [
      { fileName: page1, page: 1, text: 'Copper outlook\n\nPrices <b>rose</b>\n3%' },
      { fileName: page2, page: 2, text: 'Second page' },
    ];
    const { container } = render(<ArticleBody html={html} pageTexts={pageTexts} />);
    const first = screen.getByText('Text of PDF page 1').closest('details')!;
    // Under the image's paragraph (a paragraph cannot hold it), with the text's paragraphs, never as html.
    expect(first.previousElementSibling?.querySelector('img')?.getAttribute('src')).toContain(page1);
    expect([...first.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['Copper outlook', 'Prices <b>rose</b>\n3%']);
    expect(first.querySelector('b')).toBeNull();
    // An image without alt text is named for its page; one with alt text keeps it.
    expect(screen.getByRole('img', { name: 'PDF page 1' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Page 2 of 2, deck.pdf' })).toBeInTheDocument();
    expect(screen.getByText('Text of PDF page 2')).toBeInTheDocument();
    expect(container.querySelectorAll('details')).toHaveLength(2);
  });

  it('adds nothing without page texts', () => {
    const { container } = render(<ArticleBody html={`<p><img src="/uploads/${page1}" alt=""></p>`} />);
    expect(container.querySelector('details')).toBeNull();
  });
});
