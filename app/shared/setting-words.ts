import type { MessageKey } from "./i18n/en";
import { isMessageKey } from "./i18n/translate";

// The words for a setting's values, the one place every screen takes them from (the Settings page,
// the home checklist, the CLI): `setting.<path>.<value>`, except that the three channels' review
// request rules share `setting.optOut.<value>`. A value without words is a bug the setting-words
// test finds before a merchant reads a fallback.

const OPT_OUT = "orders.optOut.";

/** The message key of one value of one setting, or null when it has no words. */
export function settingValueKey(path: string, value: string): MessageKey | null {
  const key = path.startsWith(OPT_OUT) ? `setting.optOut.${value}` : `setting.${path}.${value}`;
  return isMessageKey(key) ? key : null;
}
