//! Blueprint's NonIdealState: empty lists, screens not built yet, denied access.
import { NonIdealState, type IconName } from '@blueprintjs/core';
import type { JSX, ReactNode } from 'react';

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  icon?: IconName;
  action?: JSX.Element;
}

export function EmptyState({ title, description, icon, action }: EmptyStateProps) {
  return <NonIdealState title={title} description={description} icon={icon} action={action} />;
}
