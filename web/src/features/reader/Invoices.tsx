//! 'Your invoices' on the Subscriptions page (issue 13 'Web'): the reader's card invoices, newest
//! first (`myInvoices`), each with a link to Stripe's hosted invoice page in a new tab.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Banner } from '../../components/Banner';
import { Badge } from '../../components/Card';
import { LoadingBlock } from '../../components/LoadingScreen';
import { formatError } from '../../lib/errors';
import { formatDay } from './common/readerDates';
import { MyInvoicesDocument, type MyInvoicesQuery } from './__generated__/Invoices.generated';
import './Invoices.css';

type Invoice = MyInvoicesQuery['myInvoices'][number];

/** '$49.50' (amounts are dollars with two decimals); other currencies by their code. */
export function invoiceAmount(invoice: Pick<Invoice, 'amountDue' | 'amountPaid' | 'currency' | 'status'>): string {
  const amount = invoice.status === 'paid' ? invoice.amountPaid : invoice.amountDue;
  return invoice.currency.toLowerCase() === 'usd' ? `$${amount}` : `${amount} ${invoice.currency.toUpperCase()}`;
}

const STATUS: Record<string, { text: string; intent: 'success' | 'warning' | 'danger' | 'none' }> = {
  paid: { text: 'Paid', intent: 'success' },
  open: { text: 'Due', intent: 'warning' },
  uncollectible: { text: 'Unpaid', intent: 'danger' },
  void: { text: 'Void', intent: 'none' },
  draft: { text: 'Draft', intent: 'none' },
};

export function Invoices() {
  const { data, loading, error } = useQuery(MyInvoicesDocument, { fetchPolicy: 'cache-and-network' });
  if (error && !data)
    return (
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    );
  if (loading && !data) return <LoadingBlock label="Loading your invoices" />;
  const invoices = data?.myInvoices ?? [];
  if (invoices.length === 0) return <p className="insights-reader-empty">You have no invoices yet. Card payments are listed here.</p>;
  return (
    <ul aria-label="Your invoices" className="insights-invoices">
      {invoices.map((invoice) => {
        const status = STATUS[invoice.status] ?? { text: invoice.status, intent: 'none' as const };
        // Stripe's own invoice period is the usage before it (start and end alike on a subscription's invoices).
        const period =
          invoice.periodStart && invoice.periodEnd && formatDay(invoice.periodStart) !== formatDay(invoice.periodEnd)
            ? `${formatDay(invoice.periodStart)} – ${formatDay(invoice.periodEnd)}`
            : null;
        const title = `${invoice.channelName}${invoice.number ? `, invoice ${invoice.number}` : ''}`;
        return (
          <li key={invoice._id} className="insights-invoice">
            <div className="insights-invoice-main">
              <strong>{invoice.channelName}</strong>
              <span>{invoice.number ? `Invoice ${invoice.number}` : 'Invoice'}</span>
              <span>{period ?? formatDay(invoice.created)}</span>
            </div>
            <span className="insights-invoice-amount">{invoiceAmount(invoice)}</span>
            <Badge text={status.text} intent={status.intent} />
            {invoice.hostedInvoiceUrl && (
              <a
                href={invoice.hostedInvoiceUrl}
                target="_blank"
                rel="noopener noreferrer"
                // The visible words start the name (WCAG 2.5.3); the rest says which invoice.
                aria-label={`View invoice: ${title} (opens in a new tab)`}
              >
                View invoice
              </a>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export const MY_INVOICES_QUERY = gql`
  query MyInvoices {
    myInvoices {
      _id
      channelId
      channelName
      number
      status
      amountDue
      amountPaid
      currency
      hostedInvoiceUrl
      periodStart
      periodEnd
      created
    }
  }
`;
