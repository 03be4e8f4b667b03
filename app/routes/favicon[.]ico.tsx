// Browsers ask for /favicon.ico on every page; the app has no icon of its own (the admin shows
// Shopify's), so the answer is an empty 204, cached, instead of a 404 with a stack trace.
export const loader = () => new Response(null, { status: 204, headers: { "Cache-Control": "public, max-age=86400" } });
