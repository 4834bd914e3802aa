//! The article page's sidebar (spec 3 §2 'Article page'): the channel card, the desk contact, the
//! contributors, recent articles of the channel, the tags and the promotional content.
import { Link } from 'react-router';
import { ArticleLinkList, SidebarSection } from '../browse/BrowseLayout';
import { ContributorPhoto } from '../browse/ContributorPhoto';
import { contributorPath } from '../browse/paths';
import { ChannelCard, type ChannelCardChannel } from '../common/ChannelCard';
import { TagChips } from '../common/TagChips';
import { PromotionalContent, type PromotionalContentProps } from './PromotionalContent';

export interface ArticleSidebarProps {
  articleId: string;
  channel?: ChannelCardChannel | null;
  /** The channel's name for the recent articles (also when its card is not shown here). */
  recentChannel?: string | null;
  deskEmail?: string | null;
  contributors: readonly { _id: string; name: string; position?: string | null; phone?: string | null; hasProfilePicture: boolean }[];
  recentArticles: readonly { _id: string; title: string; publishDate: string }[];
  tags: readonly { _id: string; name: string }[];
  promotion?: PromotionalContentProps['content'] | null;
}

/** Recent channel articles listed before 'Show all'. */
const RECENT_SHOWN = 5;

export function ArticleSidebar({
  articleId,
  channel,
  recentChannel,
  deskEmail,
  contributors,
  recentArticles,
  tags,
  promotion,
}: ArticleSidebarProps) {
  return (
    <>
      {channel && (
        <SidebarSection title="Channel">
          <ChannelCard channel={channel} compact headingLevel={3} />
        </SidebarSection>
      )}
      {deskEmail && (
        <SidebarSection title="Contact the desk">
          <a href={`mailto:${deskEmail}`} className="insights-article-desk-email">
            {deskEmail}
          </a>
        </SidebarSection>
      )}
      <SidebarSection title="Contributors">
        {contributors.length === 0 ? (
          <p className="insights-browse-empty-text">No contributors are named for this article.</p>
        ) : (
          <ul aria-label="Contributors" className="insights-article-contributors">
            {contributors.map((c) => (
              <li key={c._id} className="insights-browse-person">
                <ContributorPhoto contributor={c} size={44} />
                <div>
                  <Link to={contributorPath(c._id)} className="insights-browse-directory-name">
                    {c.name}
                  </Link>
                  {c.position && <span className="insights-browse-directory-text">{c.position}</span>}
                  {c.phone && (
                    <a className="insights-browse-directory-text" href={`tel:${c.phone.replace(/[^\d+]/g, '')}`}>
                      {c.phone}
                    </a>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </SidebarSection>
      {recentChannel && (
        <SidebarSection title={`Recent in ${recentChannel}`}>
          <ArticleLinkList
            label={`Recent articles in ${recentChannel}`}
            articles={recentArticles}
            emptyText="No other articles in the last month."
            limit={RECENT_SHOWN}
          />
        </SidebarSection>
      )}
      <SidebarSection title="Tags">
        {tags.length > 0 ? (
          <TagChips tags={tags} label="Article tags" />
        ) : (
          <p className="insights-browse-empty-text">This article has no tags.</p>
        )}
      </SidebarSection>
      {promotion && (
        <SidebarSection title="Promotion">
          <PromotionalContent content={promotion} articleId={articleId} />
        </SidebarSection>
      )}
    </>
  );
}
