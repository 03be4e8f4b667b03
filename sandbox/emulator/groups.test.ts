import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { product, setup } from "./harness";

let t: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  t = await setup();
  await t.admin("POST", "/products/batch", {
    products: ["G1", "G2", "G3", "G4"].map((s) => product(s, { brand: "Acme", variants: [`${s}-v`] })),
  });
});
afterAll(() => t.emu.close());

describe("product groups", () => {
  let first = "";
  let second = "";

  it("creates a group with the full records of its products", async () => {
    const res = await t.admin("POST", "/products/groups", { name: "Pair", skus: ["G1", "G2", "G1"] });
    expect(res.status).toBe(200);
    first = res.body._id;
    expect(res.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      customer: "demo-store",
      name: "Pair",
      skus: ["G1", "G2"],
      __v: 0,
      products: [
        {
          _id: expect.any(String),
          customer: "demo-store",
          sku: "G1",
          name: "Product G1",
          brand: "Acme",
          categories: ["Apparel"],
          variants: ["G1-v"],
        },
        {
          _id: expect.any(String),
          customer: "demo-store",
          sku: "G2",
          name: "Product G2",
          brand: "Acme",
          categories: ["Apparel"],
          variants: ["G2-v"],
        },
      ],
    });
  });

  it("answers 409 {message, conflictingSkus} when a SKU already belongs to another group", async () => {
    const res = await t.admin("POST", "/products/groups", { name: "Clash", skus: ["G2", "G3"] });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: expect.any(String), conflictingSkus: ["G2"] });
    const ok = await t.admin("POST", "/products/groups", { name: "Single", skus: ["G3"] });
    expect(ok.status).toBe(200);
    second = ok.body._id;
  });

  it("updates with its own SKUs without conflict, and 409s on another group's SKU", async () => {
    const res = await t.admin("PUT", `/products/groups/${first}`, { name: "Trio", skus: ["G1", "G2", "G4"] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Trio", skus: ["G1", "G2", "G4"], __v: 1 });
    const clash = await t.admin("PUT", `/products/groups/${second}`, { skus: ["G3", "G4"] });
    expect(clash.status).toBe(409);
    expect(clash.body.conflictingSkus).toEqual(["G4"]);
  });

  it("lists, gets, deletes; unknown ids answer 404", async () => {
    const listed = await t.admin("GET", "/products/groups/all");
    expect(listed.body.total).toBe(2);
    expect(listed.body.result.map((g: { _id: string }) => g._id)).toEqual([first, second]);
    expect((await t.admin("GET", "/products/groups/all?skip=1&limit=1")).body.result).toHaveLength(1);
    expect((await t.admin("GET", `/products/groups/${second}`)).body.name).toBe("Single");
    const del = await t.admin("DELETE", `/products/groups/${second}`);
    expect(del.status).toBe(200);
    expect(del.text).toBe("");
    expect((await t.admin("GET", `/products/groups/${second}`)).status).toBe(404);
    expect((await t.admin("DELETE", `/products/groups/${second}`)).status).toBe(404);
    // G3 is free again.
    expect((await t.admin("PUT", `/products/groups/${first}`, { skus: ["G1", "G3"] })).status).toBe(200);
  });

  it("validates the body", async () => {
    expect((await t.admin("POST", "/products/groups", { name: "", skus: [] })).status).toBe(400);
    expect((await t.admin("POST", "/products/groups", { name: "x", skus: "G1" })).status).toBe(400);
    expect((await t.admin("PUT", `/products/groups/${first}`, {})).status).toBe(400);
  });
});
