//! The optional last segment of the article links sent in campaigns: '{campaignId}_{campaignType}'
//! (spec 3 §2). Views reached through it are attributed to the campaign.

export interface CampaignRef {
  id: string;
  type: string;
}

/** Splits at the first '_' (a type may hold more); null when a part is missing. */
export function parseCampaign(segment: string | undefined): CampaignRef | null {
  if (!segment) return null;
  const at = segment.indexOf('_');
  if (at <= 0 || at === segment.length - 1) return null;
  return { id: segment.slice(0, at), type: segment.slice(at + 1) };
}
