import type { MessageKey } from "./i18n/en";

/**
 * A message for a person, as the server hands it to a page: a key of the admin's dictionaries and
 * its parameters. The browser renders it in the merchant's language.
 */
export interface UiMessage {
  key: MessageKey;
  params?: Record<string, string | number>;
}
