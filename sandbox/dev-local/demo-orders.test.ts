import { describe, expect, it } from "vitest";
import { sampleLine } from "./demo-orders";

describe("a sample order in one line (dev:local without --verbose)", () => {
  it("GIVEN an order as the service holds it THEN status, items, the buyer masked and the opt-outs, no contact in the clear", () => {
    const line = sampleLine({
      orderId: "1001",
      status: "shipped",
      name: "Avery Johnson",
      email: "avery.johnson@example.com",
      phone: "+15550001234",
      items: [{ sku: "a" }, { sku: "b" }],
      optOutEmail: false,
      optOutSMS: true,
      optOutWhatsApp: true,
    });
    expect(line).toBe(
      "status shipped; 2 items; buyer Avery J., a•••@example.com, +1••••••••34; opted out of SMS, WhatsApp",
    );
    expect(line).not.toContain("avery.johnson");
  });

  it("GIVEN a guest order with no contact and no opt-out THEN it says so plainly", () => {
    expect(
      sampleLine({
        orderId: "1",
        status: "paid",
        items: [{}],
        optOutEmail: false,
        optOutSMS: false,
        optOutWhatsApp: false,
      }),
    ).toBe("status paid; 1 item; opted out of nothing");
  });
});
