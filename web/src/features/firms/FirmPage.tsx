//! A client firm's page for staff (issue 39): the firm's name as the heading, its details (domains,
//! account number, billing method, state, counts, notes), 'Edit firm', and three tabs kept in the
//! address (`?tab=`): Readers (`FirmReaders`, and the invitations not yet taken up:
//! `FirmInvitations`), Subscriptions (`FirmSubscriptions`, with each one's seats, and 'Add
//! subscription') and Usage (`FirmUsage`, with its CSV). Contributors read it all; Administrators
//! and Editors change it. An archived firm shows what it was, without the actions.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useId } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Breadcrumbs } from '../../components/admin';
import { Banner } from '../../components/Banner';
import { LinkButton } from '../../components/LinkButton';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { Tabs } from '../../components/Tabs';
import { ACCESS, hasAccess } from '../../lib/access';
import { formatError } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { FirmPageDocument, type FirmPageQuery } from './__generated__/FirmPage.generated';
import { FirmInvitations } from './FirmInvitations';
import { FirmReaders } from './FirmReaders';
import { FirmSubscriptions } from './FirmSubscriptions';
import { addFirmSubscriptionPath, BILLING_METHOD_LABELS, editFirmPath, FIRMS_PATH, firmSeatsText, type FirmTab } from './firmText';
import { FirmUsage } from './FirmUsage';
import './firms.css';

type Firm = FirmPageQuery['findFirmById'];

const TABS: readonly FirmTab[] = ['readers', 'subscriptions', 'usage'];

export default function FirmPage() {
  const { id = '' } = useParams();
  const { data, previousData, loading, error, refetch } = useQuery(FirmPageDocument, {
    variables: { id },
    fetchPolicy: 'cache-and-network',
  });
  const firm = (data ?? previousData)?.findFirmById;
  if (firm) return <FirmScreen firm={firm} onChanged={() => void refetch()} />;
  if (loading) return <LoadingBlock label="Loading the firm" />;
  return (
    <Page title="Firm" breadcrumbs={<Breadcrumbs items={[{ text: 'Firms', to: FIRMS_PATH }, { text: 'Firm' }]} />}>
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}

function FirmScreen({ firm, onChanged }: { firm: Firm; onChanged: () => void }) {
  const user = useSession();
  const headingId = useId();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') as FirmTab | null;
  const tab: FirmTab = requested && TABS.includes(requested) ? requested : 'readers';
  const archived = firm.state === 'archived';
  const canEdit = hasAccess(user.role, ACCESS.firmEdit);
  const canChange = canEdit && !archived;

  return (
    <Page title={firm.name} breadcrumbs={<Breadcrumbs items={[{ text: 'Firms', to: FIRMS_PATH }, { text: firm.name }]} />}>
      <div className="insights-firm-page">
        {archived && (
          <Banner intent="warning" title="Archived firm">
            This firm is archived: it can no longer be changed.
          </Banner>
        )}
        <section className="insights-firm-section" aria-labelledby={headingId}>
          <h2 id={headingId} className="insights-visually-hidden">
            Firm details
          </h2>
          <dl className="insights-firm-details">
            <dt>Domains</dt>
            <dd>{firm.domains.length > 0 ? firm.domains.join(', ') : 'None'}</dd>
            <dt>Account number</dt>
            <dd>{firm.accountNumber ?? 'None'}</dd>
            <dt>Billing method</dt>
            <dd>{BILLING_METHOD_LABELS[firm.billingMethod]}</dd>
            <dt>State</dt>
            <dd>{archived ? 'Archived' : 'Active'}</dd>
            <dt>Readers</dt>
            <dd>{firm.readerCount}</dd>
            <dt>Seats used / held</dt>
            <dd>{firmSeatsText(firm)}</dd>
            {firm.notes && (
              <>
                <dt>Notes</dt>
                <dd>{firm.notes}</dd>
              </>
            )}
          </dl>
          {canChange && (
            <div className="insights-firm-actions">
              <LinkButton to={editFirmPath(firm._id)} text="Edit firm" icon="edit" />
            </div>
          )}
        </section>
        <Tabs<FirmTab>
          id="firm"
          label="Firm"
          selected={tab}
          onChange={(next) => setParams(next === 'readers' ? {} : { tab: next }, { replace: true })}
          tabs={[
            {
              id: 'readers',
              title: `Readers (${firm.readerCount})`,
              panel: (
                <div className="insights-firm-section">
                  <h2 className="insights-visually-hidden">Readers</h2>
                  <FirmReaders
                    firmId={firm._id}
                    firmName={firm.name}
                    subscriptions={firm.subscriptions}
                    canManage={canChange}
                    onChanged={onChanged}
                  />
                  <FirmInvitations firmId={firm._id} canWithdraw={canChange} />
                </div>
              ),
            },
            {
              id: 'subscriptions',
              title: `Subscriptions (${firm.subscriptionCount})`,
              panel: (
                <div className="insights-firm-section">
                  <h2 className="insights-visually-hidden">Subscriptions</h2>
                  {canChange && (
                    <div className="insights-firm-actions">
                      <LinkButton to={addFirmSubscriptionPath(firm._id)} text="Add subscription" icon="add" intent="primary" />
                    </div>
                  )}
                  <FirmSubscriptions
                    firmId={firm._id}
                    subscriptions={firm.subscriptions}
                    canManage={canChange}
                    canChangeSeats={canChange}
                    onChanged={onChanged}
                  />
                </div>
              ),
            },
            {
              id: 'usage',
              title: 'Usage',
              panel: (
                <div className="insights-firm-section">
                  <h2 className="insights-visually-hidden">Usage</h2>
                  <FirmUsage firmId={firm._id} />
                </div>
              ),
            },
          ]}
        />
      </div>
    </Page>
  );
}

export const FIRM_PAGE_QUERY = gql`
  query FirmPage($id: ID!) {
    findFirmById(id: $id) {
      _id
      name
      domains
      accountNumber
      billingMethod
      state
      notes
      version
      readerCount
      seatsUsed
      seatsHeld
      subscriptionCount
      subscriptions {
        _id
        ...FirmSubscriptionRow
      }
    }
  }
`;
