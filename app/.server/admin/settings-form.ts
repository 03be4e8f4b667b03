import type { AppContext } from "../context.server";
import {
  defaultSettings,
  parseSettings,
  applyAssignments,
  convertValue,
  getPath,
  same,
  settingSpecs,
  SettingsInputError,
  type Assignment,
  type SettingSpec,
} from "../settings";
import { canSyncShop, countReviews } from "../shops";
import { startSync } from "../sync";
import { requestBackSync } from "../backsync";
import {
  toFieldValue,
  validateField,
  type FieldLeaf,
  type FieldSpec,
  type FieldValue,
} from "../../shared/settings-fields";
import type { UiMessage } from "../../shared/messages";

// The Settings page: every setting of settings/settings-paths.ts (a new setting in the schema appears
// by itself), saved all or nothing through the same parsing and validation as `settings set`, with
// the same variant-key guard: a change of catalog.variantKey first asks the service how many
// reviews it would orphan, and is saved only once the merchant confirms.

function leafOf(leaf: SettingSpec["leaf"]): FieldLeaf {
  if (leaf.kind === "text") return { kind: "text", minLength: leaf.minLength, pattern: leaf.pattern?.source };
  if (leaf.kind === "list") return { kind: "list", of: leafOf(leaf.of) };
  return leaf;
}

export const fieldSpecs: FieldSpec[] = settingSpecs.map((s) => ({
  path: s.path,
  leaf: leafOf(s.leaf),
  nullable: s.nullable,
  onlyWhen: s.onlyWhen,
}));

export async function settingsFormState(ctx: AppContext, domain: string) {
  const shop = await ctx.shops.ensure(domain);
  const settings = parseSettings(shop.settings);
  const values: Record<string, FieldValue> = {};
  const defaults: Record<string, FieldValue> = {};
  for (const s of settingSpecs) {
    values[s.path] = toFieldValue(getPath(settings, s.path));
    defaults[s.path] = toFieldValue(getPath(defaultSettings, s.path));
  }
  return { fields: fieldSpecs, values, defaults };
}

export type SettingsSaveResult =
  | { ok: true; unchanged: true }
  | { ok: true; saved: true; resync: boolean }
  | { ok: false; fieldErrors: Record<string, UiMessage> }
  | {
      ok: false;
      confirmVariantKey: {
        from: string;
        to: string;
        count: { ok: true; total: number; customer: string } | { ok: false; reason: string };
      };
    };

/** Whether a field takes part given the form's other values (orders.seller.property with mode property). */
function applies(spec: SettingSpec, form: FormData): boolean {
  if (!spec.onlyWhen) return true;
  const [path, values] = spec.onlyWhen.split("=");
  return values.split(" or ").includes(String(form.get(path) ?? ""));
}

export async function saveSettingsForm(ctx: AppContext, domain: string, form: FormData): Promise<SettingsSaveResult> {
  const shop = await ctx.shops.get(domain);
  const current = parseSettings(shop.settings);
  const fieldErrors: Record<string, UiMessage> = {};
  const assignments: Assignment[] = [];
  for (const spec of settingSpecs) {
    if (!applies(spec, form)) continue;
    const field = fieldSpecs.find((f) => f.path === spec.path)!;
    // A checkbox posts nothing when off.
    const raw =
      spec.leaf.kind === "boolean" ? (form.get(spec.path) === "true" ? "true" : "false") : form.get(spec.path);
    if (typeof raw !== "string") continue;
    const problem = validateField(field, spec.leaf.kind === "boolean" ? raw === "true" : raw);
    if (problem) {
      fieldErrors[spec.path] = problem;
      continue;
    }
    const text = spec.nullable && raw.trim() === "" ? "null" : raw;
    assignments.push({ spec, raw: text, value: convertValue(text, spec) });
  }
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };

  let next;
  try {
    next = applyAssignments(current, assignments);
  } catch (error) {
    if (!(error instanceof SettingsInputError)) throw error;
    // The schema refused what the form's checks let through: name each field it refuses.
    for (const a of assignments) {
      try {
        applyAssignments(current, [a]);
      } catch {
        fieldErrors[a.spec.path] = a.spec.onlyWhen
          ? { key: "settings.invalid.onlyWhen", params: { when: a.spec.onlyWhen } }
          : { key: "settings.invalid.text" };
      }
    }
    if (!Object.keys(fieldErrors).length)
      fieldErrors[assignments[0]?.spec.path ?? "catalog.variantKey"] = { key: "error.unknown" };
    return { ok: false, fieldErrors };
  }
  if (same(current, next)) return { ok: true, unchanged: true };

  const keyChange = current.catalog.variantKey !== next.catalog.variantKey;
  if (keyChange && form.get("confirmVariantKey") !== current.catalog.variantKey + "->" + next.catalog.variantKey) {
    const count = await countReviews(ctx, shop.domain);
    // Nothing to orphan: no need to ask.
    if (!(count.ok && count.total === 0))
      return { ok: false, confirmVariantKey: { from: current.catalog.variantKey, to: next.catalog.variantKey, count } };
  }
  await ctx.shops.updateSettings(shop.domain, next);
  ctx.log.info(
    {
      shop: shop.domain,
      paths: assignments
        .filter((a) => !same(getPath(current, a.spec.path), getPath(next, a.spec.path)))
        .map((a) => a.spec.path),
    },
    "settings saved from the admin",
  );
  const syncable = canSyncShop(shop);
  if (syncable && current.storefront.guestQuestions !== next.storefront.guestQuestions) {
    // The Q&A form reads this from the shop data the back-sync writes: ask for a run now, not at the next poll.
    await requestBackSync(ctx, shop.id).catch((error: Error) =>
      ctx.log.warn(
        { err: error.message, shop: shop.domain },
        "back-sync after a settings change not queued; the next poll brings it",
      ),
    );
  }
  if (keyChange && syncable) {
    // Workers reuse a shop's row this long: the sync must map with the new key (as the CLI does).
    await new Promise((r) => setTimeout(r, ctx.config.SHOP_CACHE_MS));
    await startSync({ db: ctx.db, queues: ctx.queues }, shop.id, "catalog");
    return { ok: true, saved: true, resync: true };
  }
  return { ok: true, saved: true, resync: false };
}
