import { ReviewsError } from "../../reviews";
import { PRODUCT_KEY } from "../proxy/path-keys";
import { clientIp } from "../proxy/rate-limits";
import { whenSigned } from "../proxy/verify-proxy.server";
import { CustomerWithoutEmailError } from "../shopper/customer-identity";
import { customerReviewAs } from "./customer-review.server";
import { json, serviceClient, type ReviewWriteDeps } from "./write-request.server";

// `GET <proxy>/products/<sku>/reviewed`: `{reviewed}` for the signed customer, so the reviews
// block shows "You reviewed this" instead of the write button to a buyer who already reviewed the
// product (the same decision a submission takes, customer-review.server.ts). A guest, or a check
// that cannot be made now, is `false`: the submission still refuses a second review.

export function reviewedResponse(request: Request, sku: string, deps: ReviewWriteDeps): Promise<Response> {
  return whenSigned(request, deps.authenticate, async ({ shop, loggedInCustomerId: customerId }) => {
    if (!PRODUCT_KEY.test(sku)) return json(400, { error: "bad_product" });
    if (!/^\d{1,20}$/.test(customerId)) return json(200, { reviewed: false });
    const limit = await deps.limits.hit("write-ip", clientIp(request), deps.settings.voteLimit);
    if (!limit.ok) return json(429, { error: "busy" }, { "Retry-After": String(limit.retryAfterSeconds) });
    if (await deps.reviewed.has(shop, customerId, sku)) return json(200, { reviewed: true });
    try {
      const client = await serviceClient(deps, shop);
      if (client instanceof Response) return json(200, { reviewed: false });
      const who = await deps.customerIdentity(shop, customerId);
      const as = await customerReviewAs(
        deps,
        { shop, sku, client },
        { kind: "customer", customerId, userId: who.userId, email: who.email },
      );
      return json(200, { reviewed: as.kind === "reviewed" });
    } catch (error) {
      if (!(error instanceof CustomerWithoutEmailError))
        deps.log.warn(
          { shop, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
          "app proxy: reviewed check not made",
        );
      return json(200, { reviewed: false });
    }
  });
}
