import fc from "fast-check";
import { getCountries, getExampleNumber, isSupportedCountry } from "libphonenumber-js/min";
import examples from "libphonenumber-js/examples.mobile.json";
import { describe, expect, it } from "vitest";
import { normalizePhone } from "./phone";
import { fuzzRuns } from "./fuzz.testkit";

const e164 = (value: string) => ({ value, international: true });
const bare = (value: string) => ({ value, international: false });

describe("normalizePhone", () => {
  describe("national numbers are completed with the address country", () => {
    it.each([
      ["US", "(212) 555-0134", "+12125550134"],
      ["US", "1-212-555-0134", "+12125550134"],
      ["CA", "416-555-0199", "+14165550199"],
      ["GB", "07911 123456", "+447911123456"],
      ["GB", "020 7946 0958", "+442079460958"],
      ["DE", "0151 23456789", "+4915123456789"],
      ["DE", "030 1234567", "+49301234567"],
      ["FR", "06 12 34 56 78", "+33612345678"],
      ["ES", "612 345 678", "+34612345678"],
      ["IT", "06 1234 5678", "+390612345678"], // Italian landlines keep their 0
      ["IT", "347 123 4567", "+393471234567"],
      ["NL", "06-12345678", "+31612345678"],
      ["BR", "(11) 91234-5678", "+5511912345678"],
      ["BR", "011 91234-5678", "+5511912345678"],
      ["MX", "55 1234 5678", "+525512345678"],
      ["MX", "01 55 1234 5678", "+525512345678"],
      ["AU", "0412 345 678", "+61412345678"],
      ["IN", "098765 43210", "+919876543210"],
      ["JP", "090-1234-5678", "+819012345678"],
      ["JP", "03-1234-5678", "+81312345678"],
      ["PT", "912 345 678", "+351912345678"],
      ["AR", "011 2345-6789", "+541123456789"],
      ["CL", "9 6123 4567", "+56961234567"],
      ["CO", "321 1234567", "+573211234567"],
    ])("%s %s → %s", (country, raw, expected) => {
      expect(normalizePhone(raw, country)).toEqual(e164(expected));
    });

    it("covers at least the countries the brief names", () => {
      for (const c of "US CA GB DE FR ES IT NL BR MX AU IN JP PT AR CL CO".split(" ")) {
        expect(isSupportedCountry(c), c).toBe(true);
      }
    });

    it("completes every country's example mobile written the national way", () => {
      const wrong: string[] = [];
      for (const country of getCountries()) {
        const example = getExampleNumber(country, examples);
        if (!example) continue;
        const got = normalizePhone(example.formatNational(), country)?.value;
        if (got !== example.number) wrong.push(`${country} ${example.formatNational()} → ${got}`);
      }
      expect(wrong).toEqual([]);
    });

    it("accepts a lower-case country code", () => {
      expect(normalizePhone("06 12 34 56 78", "fr")).toEqual(e164("+33612345678"));
    });

    it("recognises a number that already starts with the calling code but lost its +", () => {
      expect(normalizePhone("44 7911 123456", "GB")).toEqual(e164("+447911123456"));
      expect(normalizePhone("919876543210", "IN")).toEqual(e164("+919876543210"));
    });
  });

  describe("real-world numbers as buyers type them", () => {
    it.each([
      // Brazil: mobiles with the 9th digit, landlines, the carrier code of long-distance dialling
      ["BR", "+55 11 91234-5678", "+5511912345678"],
      ["BR", "+55 (11) 9 1234-5678", "+5511912345678"],
      ["BR", "0055 21 98765-4321", "+5521987654321"],
      ["BR", "55 11 91234 5678", "+5511912345678"],
      ["BR", "11912345678", "+5511912345678"],
      ["BR", "(21) 3456-7890", "+552134567890"],
      ["BR", "0 21 11 98765-4321", "+5511987654321"],
      // Spain: no national prefix; mobiles 6/7, landlines 8/9
      ["ES", "+34 612 34 56 78", "+34612345678"],
      ["ES", "0034 912 345 678", "+34912345678"],
      ["ES", "91 234 56 78", "+34912345678"],
      ["ES", "612-345-678", "+34612345678"],
      ["ES", "34 612345678", "+34612345678"],
      // Mexico: ten digits since 2019; the retired 01, 044, 045 and +52 1 still in address books
      ["MX", "+52 55 1234 5678", "+525512345678"],
      ["MX", "+52 1 33 1234 5678", "+523312345678"],
      ["MX", "00 52 81 1234 5678", "+528112345678"],
      ["MX", "(81) 1234-5678", "+528112345678"],
      ["MX", "044 55 1234 5678", "+525512345678"],
      ["MX", "045 33 1234 5678", "+523312345678"],
      // Portugal: nine digits, mobiles 9, landlines 2
      ["PT", "+351 912 345 678", "+351912345678"],
      ["PT", "00351 21 123 4567", "+351211234567"],
      ["PT", "21 123 4567", "+351211234567"],
      ["PT", "912-345-678", "+351912345678"],
      // United States
      ["US", "+1 415-555-2671", "+14155552671"],
      ["US", "415.555.2671", "+14155552671"],
      ["US", "1 (415) 555-2671", "+14155552671"],
      ["US", "+1-415-555-2671", "+14155552671"],
      ["US", "011 351 912 345 678", "+351912345678"],
      // A number of another country at this address
      ["BR", "+351 912 345 678", "+351912345678"],
      ["ES", "0052 55 1234 5678", "+525512345678"],
      ["PT", "+55 11 91234-5678", "+5511912345678"],
    ])("%s %s → %s", (country, raw, expected) => {
      expect(normalizePhone(raw, country)).toEqual(e164(expected));
    });

    it("keeps a national number too short for the country as bare digits", () => {
      expect(normalizePhone("(11) 1234-567", "BR")).toEqual(bare("111234567"));
    });

    it("completes a number of a country outside the old hand-written table", () => {
      expect(normalizePhone("040 123 456", "SI")).toEqual(e164("+38640123456"));
    });

    it.each([
      ["BR", "+55 (11) 1234-567"],
      ["ES", "+34 612 345 67"],
      ["ES", "+34 012 345 678"],
      ["MX", "+52 55 1234 567"],
      ["PT", "+351 912 345 67"],
      ["US", "+1 (123) 555-0134"],
    ])("%s drops the impossible %s", (country, raw) => {
      expect(normalizePhone(raw, country)).toBeUndefined();
    });
  });

  describe("international forms", () => {
    it("keeps a + number, without its punctuation", () => {
      expect(normalizePhone("+1 (212) 555-0134", "FR")).toEqual(e164("+12125550134"));
    });
    it("reads 00 as +", () => {
      expect(normalizePhone("0044 7911 123456", "FR")).toEqual(e164("+447911123456"));
    });
    it("reads 011 as + for NANP countries", () => {
      expect(normalizePhone("011 44 7911 123456", "US")).toEqual(e164("+447911123456"));
    });
    it("drops the (0) of +44 (0)20 …", () => {
      expect(normalizePhone("+44 (0)20 7946 0958")).toEqual(e164("+442079460958"));
    });
    it("drops a trunk 0 typed after the calling code where the country uses one", () => {
      expect(normalizePhone("+44 07911 123456")).toEqual(e164("+447911123456"));
      expect(normalizePhone("+39 06 1234 5678")).toEqual(e164("+390612345678"));
    });
    it("drops the old Mexican mobile 1 after +52", () => {
      expect(normalizePhone("+52 1 55 1234 5678")).toEqual(e164("+525512345678"));
    });
    it("keeps a + number of any country the metadata knows", () => {
      expect(normalizePhone("+386 40 123 456")).toEqual(e164("+38640123456"));
    });
    it("drops a + number whose length is impossible for a known country", () => {
      expect(normalizePhone("+1 555 0100")).toBeUndefined();
      expect(normalizePhone("+33 6 12 34")).toBeUndefined();
    });
  });

  describe("cleanup", () => {
    it("strips tel: and extensions", () => {
      expect(normalizePhone("tel:+12125550134")).toEqual(e164("+12125550134"));
      expect(normalizePhone("212-555-0134 ext. 22", "US")).toEqual(e164("+12125550134"));
      expect(normalizePhone("212-555-0134 x22", "US")).toEqual(e164("+12125550134"));
    });
    it("reads full-width digits", () => {
      expect(normalizePhone("０９０-１２３４-５６７８", "JP")).toEqual(e164("+819012345678"));
    });
  });

  describe("numbers that cannot be completed stay bare digits", () => {
    it("without a country", () => {
      expect(normalizePhone("06 12 34 56 78")).toEqual(bare("0612345678"));
    });
    it("with a country code that names no country", () => {
      expect(normalizePhone("040 123 456", "ZZ")).toEqual(bare("040123456"));
    });
    it("when the length does not fit the country", () => {
      expect(normalizePhone("612 345 67", "ES")).toEqual(bare("61234567"));
    });
    it("when the number does not fit the country's numbering plan", () => {
      expect(normalizePhone("(012) 555-0134", "US")).toEqual(bare("0125550134"));
    });
  });

  describe("obviously invalid values are dropped", () => {
    it.each([
      ["empty", ""],
      ["blank", "   "],
      ["null", null],
      ["undefined", undefined],
      ["letters", "n/a"],
      ["a vanity number", "1-800-FLOWERS"],
      ["too short", "12345"],
      ["too long", "+1234567890123456"],
      ["one digit repeated", "0000000000"],
      ["+0…", "+0612345678"],
      // Valid short numbers in Germany and Austria, under seven digits even with their calling code
      ["a German short number", "011 99", "DE"],
      ["an Austrian short number", "011/3 0", "AT"],
    ])("%s", (_label, raw, country = "US") => {
      expect(normalizePhone(raw as string | null | undefined, country)).toBeUndefined();
    });
  });

  it("never throws and returns only E.164 or 7-15 bare digits (property)", () => {
    const countries = fc.option(
      fc.oneof(fc.constantFrom(...getCountries(), "", "xx", "constructor", "__proto__"), fc.string()),
    );
    const raw = fc.option(
      fc.oneof(
        fc.string(),
        fc.string({ unit: "binary" }),
        fc.stringMatching(/^(\+|00|011)?[0-9 ()./-]{0,24}( ?(ext|x|#) ?[0-9]{1,4})?$/),
      ),
    );
    fc.assert(
      fc.property(raw, countries, (r, c) => {
        const result = normalizePhone(r, c);
        if (result === undefined) return;
        expect(result.value).toMatch(result.international ? /^\+[1-9]\d{6,14}$/ : /^\d{7,15}$/);
        // Normalizing again changes nothing.
        expect(normalizePhone(result.value, c)?.value).toBe(result.value);
      }),
      { numRuns: fuzzRuns(3000) },
    );
  });
});
