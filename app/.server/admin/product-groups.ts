import { z } from "zod";
import { ReviewsPermanentError } from "../reviews";
import type { AppContext } from "../context.server";
import { requestBackSync } from "../backsync";
import { reviewsFor } from "./reviews-client";
import { orMessage, serviceErrorMessage } from "./service-errors";
import type { UiMessage } from "../../shared/messages";
import { skipOf } from "./lists";
import { shopProducts, type ShopProduct } from "./shop-products";
import { serviceProductNames } from "./service-product-names";

// Product groups: the service's list a page at a time, each group's products named by title with
// their image (from the product mirror), and the edits. The page picks products (Shopify product
// ids); the service groups catalog keys: the mirror turns one into the other.

/** A product of a group: what the mirror knows of its key, else the service's name for it (or none). */
export type GroupProduct = ShopProduct | { productId: null; key: string; title: string | null; image: null };

export interface GroupRow {
  id: string;
  name: string;
  products: GroupProduct[];
}

/** The group's keys as products, in the group's order: a key the mirror does not know stays a key. Pure. */
export function groupProducts(
  keys: readonly string[],
  known: ReadonlyMap<string, ShopProduct>,
  serviceNames: ReadonlyMap<string, string> = new Map(),
): GroupProduct[] {
  return keys.map(
    (key) => known.get(key) ?? { productId: null, key, title: serviceNames.get(key) ?? null, image: null },
  );
}

export async function groupsPage(ctx: AppContext, domain: string, params: URLSearchParams) {
  const skip = skipOf(params);
  if (!(await ctx.shops.status(domain)).connected) return { connected: false as const };
  let admin: Awaited<ReturnType<typeof reviewsFor>>["admin"] | undefined;
  const listed = await orMessage(async () => {
    admin = (await reviewsFor(ctx, domain)).admin;
    return admin.listProductGroups({ skip });
  });
  if (!listed.ok) return { connected: true as const, error: listed.error };
  const groups = listed.value.result;
  // One mirror query for every product of the page's groups.
  const keys = [...new Set(groups.flatMap((g) => g.skus))];
  const known = new Map((keys.length ? await shopProducts(ctx, domain, { keys }) : []).map((p) => [p.key, p]));
  const names = await serviceProductNames(
    admin!,
    keys.filter((k) => !known.has(k)),
  );
  const rows: GroupRow[] = groups.map((g) => ({
    id: g._id,
    name: g.name,
    products: groupProducts(g.skus, known, names),
  }));
  return { connected: true as const, skip, total: listed.value.total, rows };
}

const groupForm = z.object({
  name: z.string().trim().min(1),
  // Shopify product ids the merchant picked, and keys of the group the mirror does not know (kept).
  products: z.array(z.string().regex(/^\d+$/)),
  keys: z.array(z.string().trim().min(1)),
});

export type GroupResult =
  | { ok: true; message: UiMessage }
  | {
      ok: false;
      fieldErrors?: { name?: UiMessage; products?: UiMessage };
      error?: UiMessage;
      conflictingSkus?: string[];
    };

export async function editGroup(ctx: AppContext, domain: string, form: FormData): Promise<GroupResult> {
  const result = await changeGroup(ctx, domain, form);
  // A group's products show the group's reviews: the back-sync brings their stars, summary and
  // list together now rather than at the next poll. Not queued: the poll brings it all the same.
  if (result.ok) {
    await ctx.shops
      .get(domain)
      .then((shop) => requestBackSync(ctx, shop.id))
      .catch((error: Error) =>
        ctx.log.warn(
          { err: error.message, shop: domain },
          "back-sync after a group change not queued; the next poll brings it",
        ),
      );
  }
  return result;
}

async function changeGroup(ctx: AppContext, domain: string, form: FormData): Promise<GroupResult> {
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const client = await reviewsFor(ctx, domain);
  let named = new Map<string, ShopProduct>();
  try {
    if (intent === "delete") {
      await client.admin.deleteProductGroup(id);
      return { ok: true, message: { key: "groups.deleted" } };
    }
    const parsed = groupForm.safeParse({
      name: form.get("name") ?? "",
      products: form.getAll("product").map(String),
      keys: form.getAll("key").map(String),
    });
    if (!parsed.success) {
      const fields = new Set(parsed.error.issues.map((i) => String(i.path[0])));
      return {
        ok: false,
        fieldErrors: {
          ...(fields.has("name") ? { name: { key: "groups.nameRequired" } } : {}),
          ...(fields.has("products") ? { products: { key: "groups.productsRequired" } } : {}),
        },
      };
    }
    const { name, products, keys } = parsed.data;
    const picked = [...new Set(products)];
    named = new Map(
      (picked.length ? await shopProducts(ctx, domain, { productIds: picked }) : []).map((p) => [p.productId, p]),
    );
    const unsent = picked.filter((p) => !named.has(p));
    // The service groups keys it knows: a product the catalog has not sent yet has none.
    if (unsent.length)
      return { ok: false, fieldErrors: { products: { key: "groups.notSent", params: { count: unsent.length } } } };
    const skus = [...new Set([...picked.map((p) => named.get(p)!.key), ...keys])];
    if (!skus.length) return { ok: false, fieldErrors: { products: { key: "groups.productsRequired" } } };
    if (intent === "update" && id) {
      await client.admin.updateProductGroup(id, { name, skus });
      return { ok: true, message: { key: "groups.updated" } };
    }
    await client.admin.createProductGroup({ name, skus });
    return { ok: true, message: { key: "groups.created" } };
  } catch (error) {
    if (error instanceof ReviewsPermanentError && error.reason === "conflict" && error.conflictingSkus?.length) {
      // Named by title, as the merchant picked them.
      const titles = new Map([...named.values()].map((p) => [p.key, p.title ?? p.key]));
      const names = error.conflictingSkus.map((k) => titles.get(k) ?? k);
      return {
        ok: false,
        conflictingSkus: error.conflictingSkus,
        error: { key: "groups.conflict", params: { skus: names.join(", ") } },
      };
    }
    return { ok: false, error: serviceErrorMessage(error) };
  }
}
