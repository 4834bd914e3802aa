"""The reader's GraphQL documents, as the web app sends them, shared by the reader benchmark
(reader.sh) and the soak (soak.py). They are read from the web app's generated documents, so that
the benchmarks measure what the browser asks and follow the app when its queries change
(articles.sh reads the staff list's document the same way)."""

import os
import subprocess


def web_document(operation):
    """The document the web app sends for an operation (see web_document.mjs)."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web_document.mjs")
    return subprocess.run(["node", script, operation], check=True, stdout=subprocess.PIPE, text=True).stdout


# The search page (web/src/features/reader/Search.tsx): $params, $first, $after, $withTotal.
SEARCH = web_document("SearchScreen")
# A channel's article list (web/src/features/reader/ChannelArticles.tsx): $params, $first, $after.
CHANNEL_ARTICLES = web_document("ChannelArticles")
# The article page (web/src/features/reader/article/ArticlePage.tsx): $id.
ARTICLE = web_document("ArticlePage")
# The For You page (web/src/features/reader/ForYou.tsx): $first, $pick.
FOR_YOU = web_document("ForYouScreen")


def for_you_variables(first):
    """The For You page's variables: `first` articles per list and 3 channels of each kind, picked
    by a seed (the browser draws one per page view; the server's work is the same for any)."""
    return {"first": first, "pick": {"count": 3, "seed": 0.5}}
