import { Banner } from '../../components/Banner';
import { useConfig } from '../../lib/config';
import { trialBannerText, useTrial } from '../../lib/trial';

/** Remaining trial time for a reader in a continuing trial, near its end (spec 3 §4). */
export function TrialBanner() {
  const trial = useTrial();
  const { constants } = useConfig();
  if (trial.state !== 'TrialContinues') return null;
  const text = trialBannerText(trial.minutesLeft, constants.expiryBannerDays);
  if (!text) return null;
  return <Banner intent="primary">{text}</Banner>;
}
