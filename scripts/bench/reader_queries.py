"""The reader's GraphQL documents, as the web app sends them, shared by the reader benchmark
(reader.sh) and the soak (soak.py)."""

CARD = """fragment Card on ArticleCard { _id title summary publishDate lastEdited isPremium isPremiumActive canSeeFullVersion
  isLocked isPinned displayInChartSection publishedBy { _id name type } premiumChannel { _id name type state }
  categories { _id name } tags { _id name } }"""

SEARCH = """query Search($params: SearchArticlesParams, $first: Int!) {
  searchArticles(params: $params, first: $first) {
    totalCount pageInfo { endCursor hasNextPage } documents { highlight article { ...Card } } } }""" + CARD

ARTICLE = """query Article($id: ID!) { findPublishedArticleById(id: $id) {
  _id title html summary publishDate lastEdited state version isPremium isPremiumActive premiumExpiryOffset
  canSeeFullVersion isLocked showWatermark blockCopy isPinned displayInChartSection deskEmail
  publishedBy { _id name type } contributors { _id name position hasProfilePicture }
  categories { _id name } rootCategories { _id name } tags { _id name } premiumChannel { _id name type state }
  premiumChannelDetails { _id name type price description isCurrentUserSubscribed
    userChannelSubscription { subscriptionState isActive isFullArticleContent } }
  randomisedPromotionalContent { _id name link sidebarImage } recentChannelArticles { ...Card } } }""" + CARD

# The For You page's own query (web/src/features/reader/ForYou.tsx, ForYouScreen).
FOR_YOU = """query ForYou($take: Int!) {
  me { _id channelSubscriptions { channelId subscriptionState isActive channel { ...Channel } }
       followedCategories { _id } recommendedArticles(take: $take) { ...Card } }
  latestFree: getArticles(params: {freeOnly: true}, first: $take, page: 1) { hasMore articles { ...Card } }
  premiumChannels { ...Channel }
  freeChannels { ...Channel } }
fragment Channel on Channel { _id name description type price profileImage coverImage defaultTrialDurationDays
  isCurrentUserSubscribed userChannelSubscription { channelId subscriptionType subscriptionState cancelAt cancelAtPeriodEnd isActive isFullArticleContent } }""" + CARD
