//! The publisher sidebar of spec 1 §2: which sections a role sees, by feature flag.
import type { IconName } from '../../components/Button';
import type { Role } from '../../lib/access';

export interface SidebarEntry {
  text: string;
  to: string;
  icon: IconName;
}

export interface SidebarFlags {
  premiumChannels: boolean;
}

export function publisherSidebarItems(role: Role | null | undefined, flags: SidebarFlags): SidebarEntry[] {
  const items: SidebarEntry[] = [
    { text: 'Articles', to: '/publisher/articles', icon: 'document' },
    { text: 'Templates', to: '/publisher/templates', icon: 'duplicate' },
  ];
  if (flags.premiumChannels) items.push({ text: 'Channels', to: '/publisher/premium-channels', icon: 'feed' });
  // 'Topic' replaces 'category' everywhere when premium channels are on (spec 1 §1).
  items.push(
    flags.premiumChannels
      ? { text: 'Topics', to: '/publisher/topics', icon: 'diagram-tree' }
      : { text: 'Categories', to: '/publisher/categories', icon: 'diagram-tree' },
    { text: 'Tags', to: '/publisher/tags', icon: 'tag' },
    { text: 'Users', to: '/publisher/users', icon: 'people' },
    { text: 'Desks', to: '/publisher/desks', icon: 'office' },
  );
  // Client firms hold subscriptions to premium channels (issue 39).
  if (flags.premiumChannels) items.push({ text: 'Firms', to: '/publisher/firms', icon: 'briefcase' });
  if (role === 'Administrator') {
    items.push(
      { text: 'Promotional Content', to: '/publisher/promotional-content', icon: 'star' },
      { text: 'Interests', to: '/publisher/interests', icon: 'hand-up' },
      { text: 'Reader questions', to: '/publisher/chat-questions', icon: 'info-sign' },
      { text: 'Audit trail', to: '/publisher/audit', icon: 'history' },
      { text: 'Trial policy', to: '/publisher/trial-policy', icon: 'shield' },
      { text: 'Disclosures', to: '/publisher/disclosures', icon: 'annotation' },
    );
  }
  return items;
}
