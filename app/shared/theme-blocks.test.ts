import { describe, expect, it } from "vitest";
import { standInExtensionsAnswer } from "../../sandbox/app-bridge/stand-in";
import { THEME_BLOCKS, THEME_EMBED, themeSetupDone, themeSetupFromExtensions } from "./theme-blocks";

// The theme step reads App Bridge's `app.extensions()` answer (documented shape: a list of
// extensions, a theme app extension's activations one per block/embed with a status and its
// placements in the published theme).

describe("themeSetupFromExtensions", () => {
  it("GIVEN nothing of ours is added THEN every part is off and the step is not done", () => {
    const setup = themeSetupFromExtensions(standInExtensionsAnswer([]));
    expect(setup).toEqual({ starRating: false, reviews: false, embed: false, orderReviews: false });
    expect(themeSetupDone(setup!)).toBe(false);
  });

  it("GIVEN both product page blocks and the embed are on THEN the step is done without the optional account block", () => {
    const setup = themeSetupFromExtensions(
      standInExtensionsAnswer([THEME_BLOCKS.starRating, THEME_BLOCKS.reviews, THEME_EMBED]),
    );
    expect(setup).toEqual({ starRating: true, reviews: true, embed: true, orderReviews: false });
    expect(themeSetupDone(setup!)).toBe(true);
  });

  it("GIVEN the blocks but not the embed THEN the step is not done", () => {
    const setup = themeSetupFromExtensions(standInExtensionsAnswer([THEME_BLOCKS.starRating, THEME_BLOCKS.reviews]))!;
    expect(setup.embed).toBe(false);
    expect(themeSetupDone(setup)).toBe(false);
  });

  it("GIVEN a block placed in the theme whose status says otherwise THEN its placements count", () => {
    const answer = [
      {
        handle: "reviews-theme",
        type: "theme_app_extension",
        activations: [
          {
            handle: "star-rating",
            name: "Star rating",
            target: "section",
            status: "available",
            activations: [{ target: "template--product/main/x", themeId: "gid://shopify/OnlineStoreTheme/1" }],
          },
        ],
      },
    ];
    expect(themeSetupFromExtensions(answer)?.starRating).toBe(true);
  });

  it("GIVEN only other extensions (ours not deployed) THEN nothing is on", () => {
    const answer = [
      { handle: "thank-you", type: "ui_extension", activations: [{ target: "purchase.thank-you.block.render" }] },
      {
        handle: "someone-else",
        type: "theme_app_extension",
        activations: [{ handle: "star-rating", status: "active", activations: [] }],
      },
    ];
    expect(themeSetupFromExtensions(answer)).toEqual({
      starRating: false,
      reviews: false,
      embed: false,
      orderReviews: false,
    });
  });

  it("GIVEN an answer that is not the documented list THEN there is no reading (the page asks the merchant)", () => {
    for (const answer of [undefined, null, "added", { extensions: [] }, 42])
      expect(themeSetupFromExtensions(answer)).toBeNull();
  });

  it("GIVEN malformed entries inside the list THEN they are ignored, not thrown on", () => {
    expect(
      themeSetupFromExtensions([
        null,
        1,
        { handle: "reviews-theme", type: "theme_app_extension", activations: [null, "x", { handle: "reviews" }] },
      ]),
    ).toEqual({
      starRating: false,
      reviews: false,
      embed: false,
      orderReviews: false,
    });
  });
});
