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
