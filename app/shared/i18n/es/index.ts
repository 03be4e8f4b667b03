import type { MessageKey } from "../en";
import { common } from "./common";
import { home } from "./home";
import { sync } from "./sync";
import { settings } from "./settings";
import { moderation } from "./moderation";
import { products } from "./products";
import { googleFeed } from "./google-feed";
import { channels } from "./channels";
import { shopApp } from "./shop-app";

// Spanish: every key of the English words, one file per admin area.
export const es: Record<MessageKey, string> = {
  ...common,
  ...home,
  ...sync,
  ...settings,
  ...moderation,
  ...products,
  ...googleFeed,
  ...channels,
  ...shopApp,
};
