import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReviewsClient, ReviewsPermanentError } from "../../app/.server/reviews";
import { type ContractTarget, clientFor, openTarget, uid, failure } from "./target";

// Product groups CRUD and the documented 409 with conflictingSkus.

let target: ContractTarget;
let client: ReviewsClient;

beforeAll(async () => {
  target = await openTarget();
  client = clientFor(target.account);
});
afterAll(async () => {
  await target?.close();
});

async function products(n: number): Promise<string[]> {
  const skus = Array.from({ length: n }, () => uid("sock"));
  await client.admin.sendCatalogBatch(skus.map((sku) => ({ sku, name: `Sock ${sku}`, categories: ["Socks"] })));
  return skus;
}

describe("product groups", () => {
  it("create → get → list → update → delete", async () => {
    const [a, b, c] = await products(3);
    const name = uid("group");
    const created = await client.admin.createProductGroup({ name, skus: [a, b] });
    expect(created).toMatchObject({ name, skus: [a, b] });
    expect(created._id).toEqual(expect.any(String));
    expect(created.products?.map((p) => p.sku).sort()).toEqual([a, b].sort());

    await expect(client.admin.getProductGroup(created._id)).resolves.toMatchObject({ _id: created._id, name });

    const list = await client.admin.listProductGroups({ skip: 0, limit: 500 });
    expect(list.total).toBeGreaterThanOrEqual(1);
    expect(list.result.map((g) => g._id)).toContain(created._id);

    const updated = await client.admin.updateProductGroup(created._id, { name: `${name}-v2`, skus: [a, b, c] });
    expect(updated).toMatchObject({ _id: created._id, name: `${name}-v2`, skus: [a, b, c] });

    await expect(client.admin.deleteProductGroup(created._id)).resolves.toBeUndefined();
    const gone = await failure(client.admin.getProductGroup(created._id));
    expect(gone).toBeInstanceOf(ReviewsPermanentError);
  });

  it("409 with conflictingSkus when a SKU already belongs to another group (create and update)", async () => {
    const [a, b, c] = await products(3);
    const first = await client.admin.createProductGroup({ name: uid("group"), skus: [a, b] });

    const onCreate = await failure(client.admin.createProductGroup({ name: uid("group"), skus: [b, c] }));
    expect(onCreate).toBeInstanceOf(ReviewsPermanentError);
    expect(onCreate.status).toBe(409);
    expect((onCreate as ReviewsPermanentError).conflictingSkus).toEqual([b]);
    expect(onCreate.serviceMessage).toEqual(expect.any(String));

    const second = await client.admin.createProductGroup({ name: uid("group"), skus: [c] });
    const onUpdate = await failure(client.admin.updateProductGroup(second._id, { name: "x", skus: [c, a] }));
    expect(onUpdate.status).toBe(409);
    expect((onUpdate as ReviewsPermanentError).conflictingSkus).toEqual([a]);

    // A group's own SKUs never conflict with itself.
    await expect(client.admin.updateProductGroup(first._id, { name: "same", skus: [a, b] })).resolves.toMatchObject({
      skus: [a, b],
    });

    await client.admin.deleteProductGroup(first._id);
    await client.admin.deleteProductGroup(second._id);
  });
});
