/** How a read reached the reader (the API's `source`): the article page, a private feed, or their AI assistant through the MCP server. */
const LABELS: Record<string, string> = { web: 'Web', feed: 'Feed', agent: 'AI assistant' };

export function readSourceLabel(source: string): string {
  return LABELS[source] ?? source;
}
