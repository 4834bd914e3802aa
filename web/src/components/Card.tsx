//! Blueprint's Card and Tag for reader content: article and channel cards, and the small badges on
//! them (Premium, Locked, Free). A card is an `article` landmark so lists read as a feed.
import { Card as BpCard, Tag, type IconName, type Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';

export interface CardProps {
  children: ReactNode;
  className?: string;
  /** The id of the element naming the card (its title). */
  labelledBy?: string;
  compact?: boolean;
}

export function Card({ children, className, labelledBy, compact }: CardProps) {
  return (
    <BpCard elevation={1} compact={compact} className={className} role="article" aria-labelledby={labelledBy}>
      {children}
    </BpCard>
  );
}

export interface BadgeProps {
  text: string;
  icon?: IconName;
  intent?: Intent;
}

/** A small rounded label ('Premium', 'Locked'). */
export function Badge({ text, icon, intent = 'none' }: BadgeProps) {
  return (
    <Tag minimal round icon={icon} intent={intent}>
      {text}
    </Tag>
  );
}
