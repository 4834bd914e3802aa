//! Blueprint's NonIdealState: empty lists, screens not built yet, denied access.
import { NonIdealState, type IconName } from '@blueprintjs/core';
import type { JSX, ReactNode } from 'react';
import { useDocumentTitle } from '../lib/pageTitle';

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  icon?: IconName;
  action?: JSX.Element;
  /** The state is the whole screen (signed out, access denied): its title is the page's h1 and the document's title. */
  isScreen?: boolean;
}

export function EmptyState({ title, description, icon, action, isScreen = false }: EmptyStateProps) {
  if (isScreen) return <ScreenState title={title} description={description} icon={icon} action={action} />;
  return <NonIdealState title={title} description={description} icon={icon} action={action} />;
}

function ScreenState({ title, description, icon, action }: Omit<EmptyStateProps, 'isScreen'>) {
  useDocumentTitle(title);
  // NonIdealState draws its title as an h4: the screen's title goes in as an h1 of the same look.
  const heading = <h1 className="bp6-heading insights-screen-state-title">{title}</h1>;
  return (
    <NonIdealState
      description={
        <>
          {heading}
          {description}
        </>
      }
      icon={icon}
      action={action}
    />
  );
}
