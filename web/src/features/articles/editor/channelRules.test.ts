import { describe, expect, it } from 'vitest';
import { EMPTY_VALUES, type ArticleValues } from './articleValues';
import {
  changeChannel,
  changeOpenToAll,
  channelOptions,
  expiryOffsetToSend,
  offersExpiryOffset,
  offersOpenToAll,
  premiumFlag,
  type ChannelChoice,
} from './channelRules';

const OIL: ChannelChoice = { _id: 'c-oil', name: 'Oil Weekly', type: 'premium', owner: { _id: 'd-oil', name: 'Oil desk' } };
const GAS: ChannelChoice = { _id: 'c-gas', name: 'Gas Daily', type: 'freeClosed', owner: { _id: 'u-chris', name: 'Chris Contributor' } };
const NEWS: ChannelChoice = { _id: 'c-news', name: 'News', type: 'freeOpen', owner: { _id: 'd-news', name: 'News desk' } };

const filled: ArticleValues = {
  ...EMPTY_VALUES,
  title: 'Brent outlook',
  summary: 'Prices',
  channel: OIL,
  openToAll: false,
  premiumExpiryOffset: '1w',
  contributors: [{ _id: 'u-erin', name: 'Erin Editor', email: 'erin@insights.example' }],
  categories: ['t-energy'],
};

describe('changeChannel', () => {
  it('resets open-to-all, the expiry offset and the contributors, and brings the new owner', () => {
    const next = changeChannel({ ...filled, openToAll: true }, GAS);
    expect(next).toEqual({ ...filled, channel: GAS, openToAll: false, premiumExpiryOffset: null, contributors: [] });
    expect(next.channel?.owner?.name).toBe('Chris Contributor');
  });

  it('changes nothing when the same channel is chosen again', () => {
    expect(changeChannel(filled, { ...OIL })).toBe(filled);
  });

  it('clears the channel too', () => {
    expect(changeChannel(filled, null)).toMatchObject({ channel: null, premiumExpiryOffset: null, contributors: [] });
  });
});

describe('changeOpenToAll', () => {
  it('clears the expiry offset either way', () => {
    expect(changeOpenToAll(filled, true)).toEqual({ ...filled, openToAll: true, premiumExpiryOffset: null });
    expect(changeOpenToAll({ ...filled, openToAll: true, premiumExpiryOffset: '3d' }, false)).toMatchObject({
      openToAll: false,
      premiumExpiryOffset: null,
    });
  });
});

describe('what the channel offers', () => {
  it('offers open-to-all on channels that are not freeOpen', () => {
    expect(offersOpenToAll(OIL)).toBe(true);
    expect(offersOpenToAll(GAS)).toBe(true);
    expect(offersOpenToAll(NEWS)).toBe(false);
    expect(offersOpenToAll(null)).toBe(false);
  });

  it('offers the expiry offset on a premium channel when not open to all', () => {
    expect(offersExpiryOffset({ channel: OIL, openToAll: false })).toBe(true);
    expect(offersExpiryOffset({ channel: OIL, openToAll: true })).toBe(false);
    expect(offersExpiryOffset({ channel: GAS, openToAll: false })).toBe(false);
    expect(offersExpiryOffset({ channel: null, openToAll: false })).toBe(false);
  });
});

describe('premiumFlag', () => {
  it('is the inverse of open-to-all on channels that are not freeOpen', () => {
    expect(premiumFlag({ channel: OIL, openToAll: false })).toBe(true);
    expect(premiumFlag({ channel: OIL, openToAll: true })).toBe(false);
    expect(premiumFlag({ channel: GAS, openToAll: false })).toBe(true);
    expect(premiumFlag({ channel: GAS, openToAll: true })).toBe(false);
  });

  it('is not sent for a freeOpen channel or without a channel', () => {
    expect(premiumFlag({ channel: NEWS, openToAll: false })).toBeNull();
    expect(premiumFlag({ channel: null, openToAll: true })).toBeNull();
  });
});

describe('expiryOffsetToSend', () => {
  it('sends the offset only where the select is offered', () => {
    expect(expiryOffsetToSend({ channel: OIL, openToAll: false, premiumExpiryOffset: '1m' })).toBe('1m');
    expect(expiryOffsetToSend({ channel: OIL, openToAll: true, premiumExpiryOffset: '1m' })).toBeNull();
    expect(expiryOffsetToSend({ channel: GAS, openToAll: false, premiumExpiryOffset: '1m' })).toBeNull();
  });
});

describe('channelOptions', () => {
  it("adds the article's own channel when the user may not publish to it", () => {
    expect(channelOptions([OIL, GAS], NEWS)).toEqual([OIL, GAS, NEWS]);
    expect(channelOptions([OIL, GAS], GAS)).toEqual([OIL, GAS]);
    expect(channelOptions([OIL], null)).toEqual([OIL]);
  });
});
