import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';

/** The body of a reader page that a later issue fills in. */
export function ReaderPlaceholder({ title, children }: { title: string; children?: string }) {
  return (
    <Page title={title}>
      <EmptyState icon="build" title="This section is being built" description={children ? <p>{children}</p> : undefined} />
    </Page>
  );
}
