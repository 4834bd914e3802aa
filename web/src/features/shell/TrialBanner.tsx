import { Banner } from '../../components/Banner';
import { useConfig } from '../../lib/config';
import { trialBannerIsWarning, trialBannerText, useTrial } from '../../lib/trial';

/** Remaining trial time for a reader in a continuing trial (spec 3 §4); a warning near the end. */
export function TrialBanner() {
  const trial = useTrial();
  const { constants } = useConfig();
  if (trial.state !== 'TrialContinues' || trial.minutesLeft === null) return null;
  const text = trialBannerText(trial.minutesLeft);
  if (!text) return null;
  const warning = trialBannerIsWarning(trial.minutesLeft, constants.expiryBannerDays);
  return <Banner intent={warning ? 'warning' : 'primary'}>{text}</Banner>;
}
