//! The route map of spec 1 §2 with the access rules of spec 1 §6. Screens are lazy-loaded so the
//! first load carries only the shell.
import { lazy, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { ChatWidget } from '../features/chat/ChatWidget';
import { AppShell } from '../features/shell/AppShell';
import { RequireRole } from '../features/shell/RequireRole';
import { RootRedirect } from '../features/shell/RootRedirect';
import { ACCESS, type Role } from '../lib/access';
import { APP_BASE } from '../lib/auth';
import { RequireAuth } from './RequireAuth';
import { SessionGate } from './SessionGate';

const Callback = lazy(() => import('../features/account/Callback'));
const LoggedOut = lazy(() => import('../features/account/LoggedOut'));
const PublisherLayout = lazy(() => import('../features/publisher/PublisherLayout'));
const TopicList = lazy(() => import('../features/taxonomy/TopicList'));
const TopicForm = lazy(() => import('../features/taxonomy/TopicForm'));
const TopicSubscriberStats = lazy(() => import('../features/taxonomy/TopicSubscriberStats'));
const TagList = lazy(() => import('../features/taxonomy/TagList'));
const TagForm = lazy(() => import('../features/taxonomy/TagForm'));
const ChannelList = lazy(() => import('../features/channels/ChannelList'));
const ChannelForm = lazy(() => import('../features/channels/ChannelForm'));
const SubscriberStatsMain = lazy(() => import('../features/subscribers/SubscriberStatsMain'));
const SubscriberStats = lazy(() => import('../features/subscribers/SubscriberStats'));
const SubscriberForm = lazy(() => import('../features/subscribers/SubscriberForm'));
const BulkAddSubscribers = lazy(() => import('../features/subscribers/BulkAdd'));
const DeskList = lazy(() => import('../features/desks/DeskList'));
const DeskForm = lazy(() => import('../features/desks/DeskForm'));
const UserList = lazy(() => import('../features/users/UserList'));
const UserForm = lazy(() => import('../features/users/UserForm'));
const ArticleList = lazy(() => import('../features/articles/ArticleList'));
const ArticleStats = lazy(() => import('../features/articles/ArticleStats'));
const ArticleEditor = lazy(() => import('../features/articles/editor/ArticleEditor'));
const TemplateList = lazy(() => import('../features/templates/TemplateList'));
const TemplateForm = lazy(() => import('../features/templates/TemplateForm'));
const TemplateChooser = lazy(() => import('../features/templates/TemplateChooser'));
const ForYou = lazy(() => import('../features/reader/ForYou'));
const Channels = lazy(() => import('../features/reader/Channels'));
const Subscriptions = lazy(() => import('../features/reader/Subscriptions'));
const Search = lazy(() => import('../features/reader/Search'));
const EmailNotifications = lazy(() => import('../features/reader/email/EmailNotifications'));
const UnsubscribePage = lazy(() => import('../features/reader/email/UnsubscribePage'));
const ChannelPage = lazy(() => import('../features/reader/ChannelPage'));
const SubscribePage = lazy(() => import('../features/reader/subscribe/SubscribePage'));
const ConfirmTrialPage = lazy(() => import('../features/reader/subscribe/ConfirmTrialPage'));
const ConfirmInterestPage = lazy(() => import('../features/reader/subscribe/ConfirmInterestPage'));
const CheckoutPage = lazy(() => import('../features/reader/subscribe/CheckoutPage'));
const SubscriptionResultPage = lazy(() => import('../features/reader/subscribe/SubscriptionResultPage'));
const ArticlePage = lazy(() => import('../features/reader/article/ArticlePage'));
const MarketingArticlePage = lazy(() => import('../features/reader/article/MarketingArticlePage'));
const CategoryPage = lazy(() => import('../features/reader/browse/CategoryPage'));
const TopicsPage = lazy(() => import('../features/reader/browse/TopicsPage'));
const DeskDirectory = lazy(() => import('../features/reader/browse/DeskDirectory'));
const DeskPage = lazy(() => import('../features/reader/browse/DeskPage'));
const ContributorDirectory = lazy(() => import('../features/reader/browse/ContributorDirectory'));
const ContributorPage = lazy(() => import('../features/reader/browse/ContributorPage'));
const TagDirectory = lazy(() => import('../features/reader/browse/TagDirectory'));
const TagPage = lazy(() => import('../features/reader/browse/TagPage'));
const ArchiveDirectory = lazy(() => import('../features/reader/browse/ArchiveDirectory'));
const ArchivePage = lazy(() => import('../features/reader/browse/ArchivePage'));
const PromotionalContentList = lazy(() => import('../features/promotions/PromotionalContentList'));
const PromotionalContentForm = lazy(() => import('../features/promotions/PromotionalContentForm'));
const PromotionPageList = lazy(() => import('../features/promotions/PromotionPageList'));
const PromotionPageForm = lazy(() => import('../features/promotions/PromotionPageForm'));
const PromotionLanding = lazy(() => import('../features/reader/PromotionLanding'));
const Interests = lazy(() => import('../features/interests/Interests'));
const AuditTrail = lazy(() => import('../features/audit/AuditTrail'));
const TrialPolicy = lazy(() => import('../features/trials/TrialPolicy'));
const Disclosures = lazy(() => import('../features/disclosures/Disclosures'));
const ArticleHistory = lazy(() => import('../features/articles/history/ArticleHistory'));
const ChatQuestions = lazy(() => import('../features/chat/ChatQuestions'));
const FirmList = lazy(() => import('../features/firms/FirmList'));
const FirmForm = lazy(() => import('../features/firms/FirmForm'));
const FirmPage = lazy(() => import('../features/firms/FirmPage'));
const FirmSubscriptionForm = lazy(() => import('../features/firms/FirmSubscriptionForm'));
const MyFirm = lazy(() => import('../features/firms/MyFirm'));

function guarded(roles: readonly Role[], element: ReactNode): ReactNode {
  return <RequireRole roles={roles}>{element}</RequireRole>;
}

/**
 * /publisher/topics and /publisher/categories: the same screens, worded by the premiumChannels flag
 * (spec 1 §1); each keeps its own path so links stay in the section the user opened.
 */
function taxonomy(path: 'topics' | 'categories'): RouteObject {
  const base = `/publisher/${path}`;
  return {
    path,
    children: [
      { index: true, element: guarded(ACCESS.taxonomy, <TopicList base={base} />) },
      { path: 'add', element: guarded(ACCESS.taxonomy, <TopicForm base={base} />) },
      { path: 'edit/:id', element: guarded(ACCESS.taxonomy, <TopicForm base={base} />) },
      { path: 'subscriber-stats/:id', element: guarded(ACCESS.channelSubscribers, <TopicSubscriberStats base={base} />) },
    ],
  };
}

const TAGS = '/publisher/tags';

const publisherRoutes: RouteObject[] = [
  { index: true, element: <Navigate to="/publisher/articles" replace /> },
  {
    path: 'articles',
    children: [
      { index: true, element: guarded(ACCESS.articleList, <ArticleList />) },
      { path: 'add', element: guarded(ACCESS.articleAdd, <ArticleEditor />) },
      { path: 'edit/:id', element: guarded(ACCESS.articleEdit, <ArticleEditor />) },
      { path: 'add-from-template', element: guarded(ACCESS.articleAdd, <TemplateChooser />) },
      { path: 'add-from-template/:templateId', element: guarded(ACCESS.articleAdd, <ArticleEditor />) },
      { path: 'stats/:id', element: guarded(ACCESS.articleStats, <ArticleStats />) },
      { path: 'history/:id', element: guarded(ACCESS.articleEdit, <ArticleHistory />) },
    ],
  },
  {
    path: 'templates',
    children: [
      { index: true, element: guarded(ACCESS.templateList, <TemplateList />) },
      { path: 'add', element: guarded(ACCESS.templateEdit, <TemplateForm />) },
      { path: 'edit/:id', element: guarded(ACCESS.templateEdit, <TemplateForm />) },
    ],
  },
  {
    path: 'promotional-content',
    children: [
      { index: true, element: guarded(ACCESS.promotions, <PromotionalContentList />) },
      { path: 'add', element: guarded(ACCESS.promotions, <PromotionalContentForm />) },
      { path: 'edit/:id', element: guarded(ACCESS.promotions, <PromotionalContentForm />) },
    ],
  },
  {
    path: 'promotional-page',
    children: [
      { index: true, element: guarded(ACCESS.promotions, <PromotionPageList />) },
      { path: 'add', element: guarded(ACCESS.promotions, <PromotionPageForm />) },
      { path: 'edit/:id', element: guarded(ACCESS.promotions, <PromotionPageForm />) },
    ],
  },
  // Registered interest (Administrators): the same access as promotional content.
  { path: 'interests', element: guarded(ACCESS.promotions, <Interests />) },
  // Who changed what, when (Administrators).
  { path: 'audit', element: guarded(ACCESS.audit, <AuditTrail />) },
  // How long trials last, the cool-off and the trial terms (Administrators).
  { path: 'trial-policy', element: guarded(ACCESS.trialPolicy, <TrialPolicy />) },
  { path: 'disclosures', element: guarded(ACCESS.disclosures, <Disclosures />) },
  // What readers asked the intelligence chat (Administrators).
  { path: 'chat-questions', element: guarded(ACCESS.promotions, <ChatQuestions />) },
  {
    path: 'tags',
    children: [
      { index: true, element: guarded(ACCESS.tags, <TagList base={TAGS} />) },
      { path: 'add', element: guarded(ACCESS.tags, <TagForm base={TAGS} />) },
      { path: 'edit/:id', element: guarded(ACCESS.tags, <TagForm base={TAGS} />) },
    ],
  },
  {
    path: 'users',
    children: [
      { index: true, element: guarded(ACCESS.users, <UserList />) },
      { path: 'edit/:id', element: guarded(ACCESS.users, <UserForm />) },
    ],
  },
  {
    path: 'desks',
    children: [
      { index: true, element: guarded(ACCESS.desks, <DeskList />) },
      { path: 'add', element: guarded(ACCESS.desks, <DeskForm />) },
      { path: 'edit/:id', element: guarded(ACCESS.desks, <DeskForm />) },
    ],
  },
  {
    // Client firms (issue 39): every staff role reads them; Administrators and Editors change them.
    // Static segments ('add', 'edit') outrank ':id', the firm's page.
    path: 'firms',
    children: [
      { index: true, element: guarded(ACCESS.firms, <FirmList />) },
      { path: 'add', element: guarded(ACCESS.firmEdit, <FirmForm />) },
      { path: 'edit/:id', element: guarded(ACCESS.firmEdit, <FirmForm />) },
      { path: ':id', element: guarded(ACCESS.firms, <FirmPage />) },
      { path: ':id/subscriptions/add', element: guarded(ACCESS.firmEdit, <FirmSubscriptionForm />) },
      { path: ':id/subscriptions/edit/:channelId', element: guarded(ACCESS.firmEdit, <FirmSubscriptionForm />) },
    ],
  },
  {
    path: 'premium-channels',
    children: [
      { index: true, element: guarded(ACCESS.channelList, <ChannelList />) },
      { path: 'add', element: guarded(ACCESS.channelEdit, <ChannelForm />) },
      { path: 'edit/:id', element: guarded(ACCESS.channelEdit, <ChannelForm />) },
      { path: 'subscriber-stats', element: guarded(ACCESS.channelSubscribers, <SubscriberStatsMain />) },
      { path: 'subscriber-stats/:id', element: guarded(ACCESS.channelSubscribers, <SubscriberStats />) },
      // Subscribers main: the channels with their subscribers are the stats main.
      { path: 'subscribers', element: <Navigate to="/publisher/premium-channels/subscriber-stats" replace /> },
      { path: 'subscribers/:id/add', element: guarded(ACCESS.channelSubscribers, <SubscriberForm />) },
      { path: 'subscribers/:id/edit/:productUserId', element: guarded(ACCESS.channelSubscribers, <SubscriberForm />) },
      { path: 'subscribers/:id/add-bulk', element: guarded(ACCESS.channelSubscribers, <BulkAddSubscribers />) },
    ],
  },
  taxonomy('topics'),
  taxonomy('categories'),
];

const reader = (element: ReactNode) => guarded(ACCESS.readerPages, element);

export const routes: RouteObject[] = [
  { path: 'callback', element: <Callback /> },
  { path: 'loggedout', element: <LoggedOut /> },
  // Public: every notification email links here with a signed token; no sign-in (spec 3 §2).
  { path: 'unsubscribe', element: <UnsubscribePage /> },
  {
    // Campaign emails link here: the article without the app header, still signed in (spec 2 §2).
    path: 'browse/marketing-article/:id/:campaignIdAndType?',
    element: (
      <RequireAuth>
        <SessionGate>{reader(<MarketingArticlePage />)}</SessionGate>
      </RequireAuth>
    ),
  },
  {
    element: (
      <RequireAuth>
        <SessionGate>
          <AppShell />
          {/* The intelligence chat floats over the signed-in pages (it decides where it shows). */}
          <ChatWidget />
        </SessionGate>
      </RequireAuth>
    ),
    children: [
      { index: true, element: <RootRedirect /> },
      {
        path: 'publisher',
        // Staff only; each section narrows further. The layout shows 'Please resize your browser' on narrow screens.
        element: guarded(ACCESS.articleList, <Outlet />),
        children: [{ element: <PublisherLayout />, children: publisherRoutes }],
      },
      { path: 'for-you', element: reader(<ForYou />) },
      { path: 'channels', element: reader(<Channels />) },
      { path: 'subscriptions', element: reader(<Subscriptions />) },
      { path: 'search', element: reader(<Search />) },
      { path: 'email-notifications', element: reader(<EmailNotifications />) },
      // A client firm's administrators manage its seats (the page tells anyone else it is theirs).
      { path: 'my-firm', element: reader(<MyFirm />) },
      // The channels directory again, and a channel's page (static 'channel' outranks 'browse/:categoryId').
      { path: 'browse/channel', element: reader(<Channels />) },
      { path: 'browse/channel/:channelId', element: reader(<ChannelPage />) },
      // Where the checkout sends the reader: subscribed, paying-invoice-requested, else unsubscribed.
      { path: 'browse/channel/:channelId/:status', element: reader(<SubscriptionResultPage />) },
      // Subscribing: the subscription page, then the checkout, the free trial request and the interest page.
      { path: 'subscribe/channel/:channelId', element: reader(<SubscribePage />) },
      { path: 'subscribe/channel/confirm/:channelId', element: reader(<CheckoutPage />) },
      { path: 'subscribe/channel/confirm-trial/:channelId', element: reader(<ConfirmTrialPage />) },
      { path: 'subscribe/channel/confirm-interest/:channelId', element: reader(<ConfirmInterestPage />) },
      // The browse root and the topics root go to the channels page (spec 1 §2, spec 3 §2); the
      // topics directory is /topics-page.
      { path: 'browse', children: [{ index: true, element: <Navigate to="/channels" replace /> }] },
      { path: 'topics', children: [{ index: true, element: <Navigate to="/channels" replace /> }] },
      // Static segments outrank ':categoryId', so /browse/channel/… and /browse/article/… keep their pages.
      { path: 'browse/article/:id/:campaignIdAndType?', element: reader(<ArticlePage />) },
      { path: 'browse/:categoryId', element: reader(<CategoryPage />) },
      { path: 'topics-page', element: reader(<TopicsPage />) },
      { path: 'desk', element: reader(<DeskDirectory />) },
      { path: 'desk/:id', element: reader(<DeskPage />) },
      { path: 'contributor', element: reader(<ContributorDirectory />) },
      { path: 'contributor/:id', element: reader(<ContributorPage />) },
      { path: 'tag', element: reader(<TagDirectory />) },
      { path: 'tag/:id', element: reader(<TagPage />) },
      { path: 'archives', element: reader(<ArchiveDirectory />) },
      { path: 'archives/:dateId', element: reader(<ArchivePage />) },
      // A promotion page: 'Register interest', then its success message (spec 2 'Promotion pages').
      { path: 'promotion/:id', element: reader(<PromotionLanding />) },
      { path: '*', element: <Navigate to="/for-you" replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes, { basename: APP_BASE });
}
