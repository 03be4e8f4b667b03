import { describe, expect, it } from "vitest";
import { isValidGtin, looksLikeMpn, normalizeBarcode, productCodes } from "./product.codes";

describe("product codes", () => {
  it("accepts 8, 12, 13 and 14-digit codes with a valid GS1 check digit", () => {
    expect(isValidGtin("96385074")).toBe(true); // EAN-8
    expect(isValidGtin("036000291452")).toBe(true); // UPC-A
    expect(isValidGtin("4006381333931")).toBe(true); // EAN-13
    expect(isValidGtin("9780306406157")).toBe(true); // ISBN-13
    expect(isValidGtin("10012345678902")).toBe(true); // GTIN-14 (case of the 0012345678905 unit)
  });

  it("rejects wrong check digits, other lengths, all zeros and non-digits", () => {
    expect(isValidGtin("4006381333932")).toBe(false);
    expect(isValidGtin("400638133393")).toBe(false);
    expect(isValidGtin("12345")).toBe(false);
    expect(isValidGtin("0000000000000")).toBe(false);
    expect(isValidGtin("40063813339a1")).toBe(false);
  });

  it("rejects check-digit-valid codes outside global ranges (in-store, coupons)", () => {
    expect(isValidGtin("2012345678909")).toBe(false); // restricted circulation 200-299
    expect(isValidGtin("212345678903")).toBe(false); // UPC number system 2 (random weight)
    expect(isValidGtin("9812345678906")).toBe(false); // coupon
    expect(isValidGtin("20123451")).toBe(false); // EAN-8 restricted
  });

  it("normalises typed barcodes: spaces and hyphens dropped, anything else is not a barcode", () => {
    expect(normalizeBarcode(" 0 36000 29145 2 ")).toBe("036000291452");
    expect(normalizeBarcode("978-0-306-40615-7")).toBe("9780306406157");
    expect(normalizeBarcode("N/A")).toBeNull();
    expect(normalizeBarcode(null)).toBeNull();
  });

  it("MPN rule: 3-70 of [A-Za-z0-9._/-], starts alphanumeric, has a digit, not barcode-shaped", () => {
    expect(looksLikeMpn("WH-1000XM4")).toBe(true);
    expect(looksLikeMpn("0602025101")).toBe(true); // 10 digits: not a GTIN length
    expect(looksLikeMpn("TSHIRT-RED")).toBe(false); // no digit
    expect(looksLikeMpn("Red shirt 2")).toBe(false); // spaces
    expect(looksLikeMpn("4006381333931")).toBe(false); // a GTIN in the SKU field
    expect(looksLikeMpn("4006381333932")).toBe(false); // a mistyped GTIN
    expect(looksLikeMpn("-A1")).toBe(false);
    expect(looksLikeMpn("A1")).toBe(false); // too short
  });

  it("takes gtin from the first valid barcode and mpn from the first part-number SKU, independently", () => {
    expect(
      productCodes([
        { barcode: "bad", sku: "free text" },
        { barcode: null, sku: "AB-100" },
        { barcode: "036000291452", sku: "AB-200" },
      ]),
    ).toEqual({ gtin: "036000291452", mpn: "AB-100" });
    expect(productCodes([])).toEqual({});
  });

  it("GIVEN typed barcodes THEN a valid GTIN typed GTIN, UPC, EAN or ISBN wins over an earlier untyped or ASIN one", () => {
    expect(
      productCodes([
        // The first barcode (what `barcode` returned) is an ASIN; the EAN comes second.
        {
          barcode: "B07XJ8C8F5",
          barcodes: [
            { type: "ASIN", value: "B07XJ8C8F5" },
            { type: "EAN", value: "4006381333931" },
          ],
        },
      ]),
    ).toEqual({ gtin: "4006381333931", ean: "4006381333931" });
    expect(
      productCodes([
        { barcode: "036000291452", barcodes: [{ type: null, value: "036000291452" }] },
        { barcode: "9780262033848", barcodes: [{ type: "ISBN", value: "978-0-262-03384-8" }] },
      ]),
    ).toEqual({ gtin: "9780262033848", ean: "9780262033848" });
    expect(productCodes([{ barcodes: [{ type: "UPC", value: "036000291452" }] }])).toEqual({ gtin: "036000291452" });
  });

  it("GIVEN typed barcodes that are not valid GTINs THEN it falls back as before typed barcodes: untyped ones, then nothing", () => {
    // An ASIN that happens to be digits is never taken; a typed code with a bad check digit neither.
    expect(
      productCodes([
        {
          barcodes: [
            { type: "ASIN", value: "4006381333931" },
            { type: "EAN", value: "4006381333932" },
          ],
        },
        { barcode: null, barcodes: [{ type: null, value: "036000291452" }] },
      ]),
    ).toEqual({ gtin: "036000291452" });
    expect(productCodes([{ barcodes: [{ type: "ASIN", value: "4006381333931" }] }])).toEqual({});
  });
});
