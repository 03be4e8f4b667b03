// Where one shop's Admin API answers: Shopify itself (https://{shop}) or a stand-in named by
// SHOPIFY_ORIGIN. The API version always comes from the app, never from the setting.

/** The origin of `shop` under a template ({shop} replaced), or https://{shop} without one. */
export function shopOrigin(shop: string, template?: string): string {
  if (!template) return `https://${shop}`;
  return template.replaceAll("{shop}", shop).replace(/\/+$/, "");
}

export function adminGraphqlUrl(origin: string, apiVersion: string): string {
  return `${origin}/admin/api/${apiVersion}/graphql.json`;
}

export function accessTokenUrl(origin: string): string {
  return `${origin}/admin/oauth/access_token`;
}
