import { describe, expect, it } from "vitest";
import { withOrderNames, type ReviewRow } from "./moderation";

// The moderation queue names orders as the merchant knows them (#1037) when the app kept the name.

const row = (id: string, order: string | null): ReviewRow => ({
  id,
  rating: 5,
  status: "pending",
  name: "Avery J.",
  text: "",
  productKey: "8000001",
  productName: "Canvas Tote",
  created: null,
  verified: order !== null,
  userId: null,
  attributes: [],
  pictures: [],
  video: null,
  reply: null,
  order,
  orderName: null,
});

describe("order names in the moderation queue", () => {
  it("GIVEN kept names THEN a review of a known order shows its name; an unknown order, or the name the service already holds, shows as it is", () => {
    const rows = withOrderNames(
      [row("a", "5923018113099"), row("b", "5923018113100"), row("c", "#1040"), row("d", null)],
      new Map([["5923018113099", "#1037"]]),
    );
    expect(rows.map((r) => r.orderName ?? r.order)).toEqual(["#1037", "5923018113100", "#1040", null]);
  });
});
