import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { productWebhookPayload, startSimulatedStore, type SimulatedStore } from "../../sandbox/simulated-store";
import { startSync } from "../../app/.server/sync/start-sync";
import { productKey } from "../../app/.server/mapping/keys";
import { seedOfflineSession } from "../../test/helpers/offline-session";

// Which version of a product the service ends up with when Shopify's deliveries come out of order
// or a full sync's snapshot is older than a live change, and where the live path takes categories
// from: real emulator, real Redis, a simulated store answering the Admin API.

const shop = "catalog-versions.myshopify.com";
let s: Stack;
let store: SimulatedStore;

beforeAll(async () => {
  store = await startSimulatedStore({ shop, products: 0, seed: 3, bulkDurationMs: 50 });
  s = await startStack("catalog-versions", {
    SHOPIFY_ORIGIN: store.originTemplate,
    CATALOG_FLUSH_WINDOW_MS: "100",
    CATALOG_FLUSH_MAX_WAIT_MS: "500",
  });
  await s.connect(shop);
  await seedOfflineSession(s.t.db, store, { shop });
});
afterAll(async () => {
  await s.close();
  await store.close();
});

const upstream = (id: string) => s.emu.control.state("acme").products.find((p) => p.sku === productKey(id));
const deliveryDone = (webhookId: string) =>
  eventually(
    () => s.t.db.webhookDelivery.findUnique({ where: { id: webhookId } }),
    (d) => d?.status === "done",
    20_000,
  );
const productReads = () => store.requests.filter((r) => r.operationName === "ProductById").length;
const at = (iso: string) => ({ updated_at: iso });

/** Delivers products/update with this payload and waits until its job ran. */
async function update(payload: Record<string, unknown>, webhookId: string) {
  expect((await s.deliver("products/update", shop, payload, { webhookId })).status).toBe(200);
  await deliveryDone(webhookId);
}

describe("product versions", () => {
  it("GIVEN two edits in one second and the older delivered again after the newer THEN the service keeps the newer", async () => {
    const node = store.addProduct({ title: "Camp Stool", productType: "Furniture" });
    const id = node.id.split("/").pop()!;
    const second = at("2026-11-20T11:00:05-05:00");
    const edit = (title: string) => ({ ...productWebhookPayload(node), title, ...second });
    const deliver = async (title: string, webhookId: string, triggeredAt: string, eventId: string) => {
      const res = await s.deliver("products/update", shop, edit(title), { webhookId, triggeredAt, eventId });
      expect(res.status).toBe(200);
      await deliveryDone(webhookId);
    };
    // Whole seconds alike: the delivery's triggered-at tells the two edits apart.
    await deliver("Camp Stool A", "stool-a", "2026-11-20T16:00:05.120Z", "e-stool-a");
    await deliver("Camp Stool B", "stool-b", "2026-11-20T16:00:05.640Z", "e-stool-b");
    await eventually(
      async () => upstream(id)?.name,
      (n) => n === "Camp Stool B",
    );
    // At-least-once: the first edit's event again (a worker died before recording it), after the second.
    await deliver("Camp Stool A", "stool-a-again", "2026-11-20T16:00:05.120Z", "e-stool-a");
    const shopId = (await s.web.shops.get(shop)).id;
    await eventually(
      () => s.worker.pending.timing(shopId),
      (t) => t.waiting === 0 && !t.inflight,
    );
    expect(upstream(id)?.name).toBe("Camp Stool B");
  });

  it("GIVEN an older products/update delivered after a newer one THEN the service keeps the newer product", async () => {
    const node = store.addProduct({ title: "Trail Mug", productType: "Mugs" });
    const id = node.id.split("/").pop()!;
    await update({ ...productWebhookPayload(node), title: "Trail Mug v2", ...at("2026-11-20T10:00:05Z") }, "mug-v2");
    await eventually(
      async () => upstream(id)?.name,
      (n) => n === "Trail Mug v2",
    );
    // Shopify resends a delivery that failed earlier, with the payload it had then.
    await update(
      { ...productWebhookPayload(node), title: "Trail Mug v1", ...at("2026-11-20T10:00:01Z") },
      "mug-v1-late",
    );
    // Whatever it staged has left before the next change comes (so they cannot merge).
    const shopId = (await s.web.shops.get(shop)).id;
    await eventually(
      () => s.worker.pending.timing(shopId),
      (t) => t.waiting === 0 && !t.inflight,
    );
    await update({ ...productWebhookPayload(node), title: "Trail Mug v3", ...at("2026-11-20T10:00:09Z") }, "mug-v3");
    await eventually(
      async () => upstream(id)?.name,
      (n) => n === "Trail Mug v3",
    );
    const sent = s.emu.control
      .requests(0)
      .filter((r) => r.path === "/api/acme/products/batch")
      .flatMap((r) => (r.body as { products: { sku: string; name: string }[] }).products)
      .filter((p) => p.sku === productKey(id))
      .map((p) => p.name);
    expect(sent).toEqual(["Trail Mug v2", "Trail Mug v3"]);
  });

  it("GIVEN a waiting change and then a late copy of the accepted payload THEN the change still goes (it is not taken for a revert)", async () => {
    const node = store.addProduct({ title: "Camp Stool", productType: "Stools" });
    const id = node.id.split("/").pop()!;
    await update({ ...productWebhookPayload(node), ...at("2026-11-20T11:00:00Z") }, "stool-v1");
    await eventually(
      async () => upstream(id)?.name,
      (n) => n === "Camp Stool",
    );
    // Both inside one flush window: v2 waits when the late copy of v1 comes.
    await s.deliver(
      "products/update",
      shop,
      { ...productWebhookPayload(node), title: "Camp Stool v2", ...at("2026-11-20T11:00:10Z") },
      { webhookId: "stool-v2" },
    );
    await update({ ...productWebhookPayload(node), ...at("2026-11-20T11:00:00Z") }, "stool-v1-again");
    await eventually(
      async () => upstream(id)?.name,
      (n) => n === "Camp Stool v2",
    );
  });

  it("GIVEN a waiting change and then an inventory update of the same state THEN the change still goes", async () => {
    const node = store.addProduct({ title: "Bike Bell", productType: "Bells" });
    const id = node.id.split("/").pop()!;
    await update({ ...productWebhookPayload(node), ...at("2026-11-20T14:00:00Z") }, "bell-v1");
    await eventually(
      async () => upstream(id)?.name,
      (n) => n === "Bike Bell",
    );
    // Inside one flush window: the title change, then stock moving (a newer updated_at, same payload).
    await s.deliver(
      "products/update",
      shop,
      { ...productWebhookPayload(node), title: "Bike Bell II", ...at("2026-11-20T14:00:10Z") },
      { webhookId: "bell-v2" },
    );
    await update(
      { ...productWebhookPayload(node), title: "Bike Bell II", ...at("2026-11-20T14:00:12Z") },
      "bell-v2-stock",
    );
    await eventually(
      async () => upstream(id)?.name,
      (n) => n === "Bike Bell II",
    );
  });

  it("GIVEN a live change newer than the full sync's snapshot THEN the sync does not send the snapshot over it", async () => {
    const node = store.addProduct({ title: "Lantern", productType: "Lighting" });
    const id = node.id.split("/").pop()!;
    // The live change is an hour newer than what the bulk operation will read from the store.
    const later = new Date(Date.parse(node.updatedAt) + 3_600_000).toISOString();
    await update({ ...productWebhookPayload(node), title: "Lantern (live)", updated_at: later }, "lantern-live");
    await eventually(
      async () => upstream(id)?.name,
      (n) => n === "Lantern (live)",
    );
    const { run } = await startSync({ db: s.t.db, queues: s.web.queues }, (await s.web.shops.get(shop)).id, "catalog");
    await eventually(
      () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } }),
      (r) => r.status === "completed",
      30_000,
    );
    expect(upstream(id)?.name).toBe("Lantern (live)");
  });
});

describe("categories on the live path", () => {
  it("GIVEN a product with no type or taxonomy category THEN its collections are read once, and later updates keep them without a read", async () => {
    const node = store.addProduct({
      title: "Gift Card Holder",
      productType: "",
      category: null,
      collections: [{ id: "gid://shopify/Collection/71", title: "Stocking Fillers", handle: "stocking-fillers" }],
    });
    const id = node.id.split("/").pop()!;
    const before = productReads();
    await update(productWebhookPayload(node), "holder-1");
    await eventually(
      async () => upstream(id)?.categories,
      (c) => c?.[0] === "Stocking Fillers",
    );
    expect(productReads() - before).toBe(1);
    await update(productWebhookPayload(store.updateProduct(node.id, { title: "Gift Card Holder II" })), "holder-2");
    await eventually(
      async () => upstream(id)?.name,
      (n) => n === "Gift Card Holder II",
    );
    expect(upstream(id)?.categories).toEqual(["Stocking Fillers"]);
    expect(productReads() - before).toBe(1);
  });

  it("GIVEN the merchant clears the product type THEN the type is not kept as its category: the product is read for its collections", async () => {
    const node = store.addProduct({
      title: "Enamel Pin",
      productType: "Pins",
      category: null,
      collections: [{ id: "gid://shopify/Collection/72", title: "Small Gifts", handle: "small-gifts" }],
    });
    const id = node.id.split("/").pop()!;
    await update(productWebhookPayload(node), "pin-1");
    await eventually(
      async () => upstream(id)?.categories,
      (c) => c?.[0] === "Pins",
    );
    const cleared = store.updateProduct(node.id, { productType: "" });
    await update(productWebhookPayload(cleared), "pin-2");
    await eventually(
      async () => upstream(id)?.categories,
      (c) => c?.[0] === "Small Gifts",
    );
  });
});
