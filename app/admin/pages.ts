import type { MessageKey } from "../shared/i18n/en";

/** The admin's pages, in navigation order (the home page is the app's name). */
export const adminPages: { path: string; label: MessageKey }[] = [
  { path: "/app/sync", label: "nav.sync" },
  { path: "/app/reviews", label: "nav.reviews" },
  { path: "/app/questions", label: "nav.questions" },
  { path: "/app/surveys", label: "nav.surveys" },
  { path: "/app/report", label: "nav.report" },
  { path: "/app/groups", label: "nav.groups" },
  { path: "/app/channels", label: "nav.channels" },
  { path: "/app/settings", label: "nav.settings" },
];
