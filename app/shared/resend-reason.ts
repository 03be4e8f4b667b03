/**
 * The error a sync run is ended with when the app forgets what it sent (resend/forget-sent.ts): the
 * Sync page shows it in the merchant's words. Here, not in the server module, as the page's
 * component reads it in the browser.
 */
export const RESEND_REASON = "resend: the reviews service no longer holds what was sent";
