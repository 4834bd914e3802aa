import { EmptyState } from '../../components/EmptyState';
import { LinkButton } from '../../components/LinkButton';
import { Page } from '../../components/Page';

export interface ReaderPlaceholderProps {
  title: string;
  children?: string;
  /** A way back (a path inside the app and its text). */
  back?: { to: string; text: string };
}

/** The body of a reader page that a later issue fills in (no icon: a large icon loads its own chunk). */
export function ReaderPlaceholder({ title, children, back }: ReaderPlaceholderProps) {
  return (
    <Page title={title}>
      <EmptyState
        title="This section is being built"
        description={children ? <p>{children}</p> : undefined}
        action={back ? <LinkButton to={back.to} text={back.text} icon="arrow-left" /> : undefined}
      />
    </Page>
  );
}
