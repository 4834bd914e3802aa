//! The time zones a reader may choose for their digests: the browser's list of IANA zones (the
//! server checks each against its own list), with UTC, the server's default, first.

export const DEFAULT_TIME_ZONE = 'UTC';

let known: readonly string[] | null = null;

/** Every IANA zone the browser knows, UTC first, then alphabetical. */
export function timeZones(): readonly string[] {
  if (!known) {
    let zones: string[] = [];
    try {
      zones = Intl.supportedValuesOf('timeZone');
    } catch {
      // An older browser without the list: UTC and the device's zone are still offered.
    }
    known = [DEFAULT_TIME_ZONE, ...zones.filter((z) => z !== DEFAULT_TIME_ZONE && z !== 'Etc/UTC').sort()];
  }
  return known;
}

/** The device's zone ('Europe/London'), or null when the browser does not say. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** 'America/New York' for 'America/New_York'. */
export function timeZoneLabel(zone: string): string {
  return zone.replace(/_/g, ' ');
}

/**
 * The options of the select: every known zone, plus the saved one and the device's when the list
 * lacks them (an alias such as 'Etc/UTC' or 'Asia/Calcutta'), the device's marked as such.
 */
export function timeZoneOptions(saved: string, device: string | null): { value: string; label: string }[] {
  const zones = [...timeZones()];
  for (const extra of [saved, device]) if (extra && !zones.includes(extra)) zones.push(extra);
  return zones.map((zone) => ({ value: zone, label: zone === device ? `${timeZoneLabel(zone)} (this device)` : timeZoneLabel(zone) }));
}
