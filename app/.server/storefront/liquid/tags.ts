import type { Liquid, TagToken, TopLevelToken, Template, Context, Emitter } from "liquidjs";
import { Tag } from "liquidjs";

// Shopify's theme tags that liquidjs lacks. `schema` and `doc` render nothing (the renderer reads the
// schema itself); `style` writes a <style data-shopify> element from its rendered body, as Shopify
// does for the theme editor's live updates.

function skipUntil(name: string, token: TagToken, remain: TopLevelToken[]) {
  const end = `end${name}`;
  while (remain.length) {
    const t = remain.shift()!;
    if (t.kind === 4 /* TokenKind.Tag */ && (t as TagToken).name === end) return;
  }
  throw new Error(`tag ${token.getText()} not closed`);
}

export function registerShopifyTags(liquid: Liquid) {
  for (const name of ["schema", "doc", "javascript", "stylesheet"]) {
    liquid.registerTag(
      name,
      class extends Tag {
        constructor(token: TagToken, remain: TopLevelToken[], l: Liquid) {
          super(token, remain, l);
          skipUntil(name, token, remain);
        }
        render() {
          return "";
        }
      },
    );
  }

  liquid.registerTag(
    "style",
    class extends Tag {
      private templates: Template[] = [];
      constructor(
        token: TagToken,
        remain: TopLevelToken[],
        l: Liquid,
        parser: { parseToken(t: TopLevelToken, r: TopLevelToken[]): Template },
      ) {
        super(token, remain, l);
        while (remain.length) {
          const t = remain.shift()!;
          if (t.kind === 4 && (t as TagToken).name === "endstyle") return;
          this.templates.push(parser.parseToken(t, remain));
        }
        throw new Error(`tag ${token.getText()} not closed`);
      }
      *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
        emitter.write("<style data-shopify>");
        yield this.liquid.renderer.renderTemplates(this.templates, ctx, emitter);
        emitter.write("</style>");
      }
    },
  );
}
