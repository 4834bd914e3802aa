//! The header (spec 1 §2 "Top navigation"): For you, Channels, Subscriptions for everyone,
//! Publisher's Dashboard for staff on wide screens, a search button, the account menu, and
//! below the small breakpoint a mobile menu. Readers browse by topic and follow topics (spec 1 §1):
//! the topics directory is an entry of the bar, and of the mobile menu (the phone's bar has no room).
//! A client firm's administrators (`me.firm.isAdmin`) also find 'My firm' in the menus (issue 39).
import { Link } from 'react-router';
import { DropdownMenu, MenuAction, MenuDivider, MenuExternalLink, MenuLink } from '../../components/DropdownMenu';
import { NavButton } from '../../components/NavButton';
import { TopBar, TopBarDivider, TopBarGroup, TopBarHeading } from '../../components/TopBar';
import { isStaff } from '../../lib/access';
import { useAuth } from '../../lib/auth';
import { useIsMobile, useIsWide } from '../../lib/breakpoints';
import { useConfig } from '../../lib/config';
import { useSession } from '../../lib/session';
import { useTopicWording } from '../../lib/topicWording';
import './TopNav.css';

/** The topics directory (features/reader/browse/TopicsPage). */
const TOPICS_PATH = '/topics-page';
/** A firm administrator's page (features/firms/MyFirm). */
const MY_FIRM_PATH = '/my-firm';

export function TopNav() {
  const user = useSession();
  const config = useConfig();
  const auth = useAuth();
  const wide = useIsWide();
  const mobile = useIsMobile();
  const topics = useTopicWording().Many;
  const signOut = () => void auth.signOut();
  const firmAdmin = !!user.firm?.isAdmin;

  return (
    <TopBar>
      <TopBarGroup align="left">
        <TopBarHeading>
          <Link to="/" className="insights-brand">
            Insights
          </Link>
        </TopBarHeading>
        <TopBarDivider />
        <NavButton to="/for-you" text="For you" />
        <NavButton to="/channels" text="Channels" />
        {!mobile && <NavButton to={TOPICS_PATH} text={topics} />}
        <NavButton to="/subscriptions" text="Subscriptions" />
        {isStaff(user.role) && wide && <NavButton to="/publisher" text="Publisher's Dashboard" />}
      </TopBarGroup>
      <TopBarGroup align="right">
        {mobile ? (
          <DropdownMenu label="Menu" icon="menu">
            <MenuLink to={TOPICS_PATH} text={topics} icon="diagram-tree" />
            {firmAdmin && <MenuLink to={MY_FIRM_PATH} text="My firm" icon="office" />}
            <MenuLink to="/email-notifications" text="Manage email notifications" icon="notifications" />
            <MenuLink to="/search" text="Search" icon="search" />
            <MenuDivider />
            <MenuAction text="Log out" icon="log-out" onClick={signOut} />
          </DropdownMenu>
        ) : (
          <>
            <NavButton to="/search" icon="search" label="Search" />
            <DropdownMenu label="Account menu" icon="user" text={user.name}>
              {config.profileLandingUrl && <MenuExternalLink href={config.profileLandingUrl} text="Manage account" icon="cog" newTab />}
              {firmAdmin && <MenuLink to={MY_FIRM_PATH} text="My firm" icon="office" />}
              <MenuLink to="/email-notifications" text="Manage email notifications" icon="notifications" />
              <MenuExternalLink href={`mailto:${config.supportEmail}`} text="Contact support" icon="envelope" />
              <MenuDivider />
              <MenuAction text="Log out" icon="log-out" onClick={signOut} />
            </DropdownMenu>
          </>
        )}
      </TopBarGroup>
    </TopBar>
  );
}
