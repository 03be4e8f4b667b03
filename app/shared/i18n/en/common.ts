// English words of app, navigation, shared controls and errors.

export const common = {
  "app.name": "Reviews",
  "nav.home": "Home",
  "nav.sync": "Sync",
  "nav.settings": "Settings",
  "nav.reviews": "Reviews",
  "nav.questions": "Questions",
  "nav.surveys": "Surveys",
  "nav.report": "Product report",
  "nav.groups": "Product groups",

  "common.retry": "Try again",
  "common.save": "Save",
  "common.discard": "Discard",
  "common.cancel": "Cancel",
  "common.delete": "Delete",
  "common.edit": "Edit",
  "common.loading": "Loading…",
  "common.yes": "Yes",
  "common.no": "No",
  "common.any": "Any",
  "common.none": "None",
  "common.previous": "Previous",
  "common.next": "Next",
  "common.pageOf": "Page {page} of {pages}",
  "common.total": "{count} in total",
  "charts.showTable": "Show as table",
  "charts.hideTable": "Hide table",
  "charts.month": "Month",
  "common.error.title": "Something went wrong",
  "common.error.body": "The page could not be loaded. Check your connection and try again.",
  "common.notConnected": "Connect your reviews account first: the service holds this data.",
  "common.connectLink": "Go to the connection form",
  "app.tokenNeedsMerchant":
    "Shopify stopped accepting this app's access to your store, so reviews, orders and ratings are paused (nothing is lost: they wait and go out once access is back). Close the app and open it again from your Shopify admin to restore it.",

  "error.auth":
    "The reviews service refused these credentials. Check the customer key, client id and client secret in the service's dashboard (Settings › Integrations › API).",
  "error.unreachable":
    "The reviews service did not answer. It may be down or the address may be wrong; try again in a moment.",
  "error.rateLimited": "The reviews service asked us to slow down. Try again in {seconds} seconds.",
  "error.refused": "The reviews service refused the request: {detail}",
  "error.response":
    "The reviews service answered in a way this app does not understand. Try again later; if it persists, contact support.",
  "error.notFound": "The reviews service does not know this item any more.",
  "error.unknown": "Something unexpected happened. Try again.",
} as const;
