import { common } from "./common";
import { home } from "./home";
import { sync } from "./sync";
import { settings } from "./settings";
import { moderation } from "./moderation";
import { products } from "./products";
import { googleFeed } from "./google-feed";
import { channels } from "./channels";
import { shopApp } from "./shop-app";

// English: the source of every admin string, one file per admin area. pt-BR and es must have every
// key, area by area (the types say so).
export const en = {
  ...common,
  ...home,
  ...sync,
  ...settings,
  ...moderation,
  ...products,
  ...googleFeed,
  ...channels,
  ...shopApp,
} as const;

export type MessageKey = keyof typeof en;
