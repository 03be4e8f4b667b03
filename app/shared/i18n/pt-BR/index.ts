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

// Portuguese (Brazil): every key of the English words, one file per admin area.
export const ptBR: Record<MessageKey, string> = {
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
