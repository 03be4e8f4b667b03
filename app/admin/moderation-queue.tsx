import { Button, InlineStack } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import type { ReviewRow } from "../.server/admin";
import { useI18n } from "./i18n/context";
import type { MessageKey } from "../shared/i18n/en";
import { moderationKey, moveCursor } from "./moderation-keys";

// The moderation queue's one-review actions: approve and reject on each row, the detail button a
// row's click opens, and the keyboard (j/k move, a/r moderate, Enter opens), each move announced.

export const openButtonId = (id: string) => `review-open-${id}`;

/** Approve, reject and details for one row (approve hidden once published, reject once rejected). */
export function RowActions({
  row,
  busy,
  onModerate,
  onOpen,
}: {
  row: ReviewRow;
  busy: boolean;
  onModerate: (approved: boolean) => void;
  onOpen: () => void;
}) {
  const { t } = useI18n();
  const name = row.name || t("reviews.detail.anonymous");
  return (
    <InlineStack gap="100" wrap>
      {row.status !== "published" ? (
        <Button
          size="slim"
          onClick={() => onModerate(true)}
          disabled={busy}
          accessibilityLabel={t("reviews.row.approve", { name })}
        >
          {t("reviews.approve")}
        </Button>
      ) : null}
      {row.status !== "removed" ? (
        <Button
          size="slim"
          tone="critical"
          onClick={() => onModerate(false)}
          disabled={busy}
          accessibilityLabel={t("reviews.row.reject", { name })}
        >
          {t("reviews.reject")}
        </Button>
      ) : null}
      <Button
        size="slim"
        variant="plain"
        id={openButtonId(row.id)}
        onClick={onOpen}
        accessibilityLabel={t("reviews.detail.openLabel", { name })}
      >
        {t("reviews.detail.open")}
      </Button>
    </InlineStack>
  );
}

/**
 * The keyboard's cursor over the page's rows: j/k focus the next or previous row's detail button
 * and announce the review in a polite live region; a/r moderate the open review, else the
 * cursor's. Returns the cursor and the announcement to render.
 */
export function useModerationShortcuts(
  rows: ReviewRow[],
  openId: string | null,
  onModerate: (row: ReviewRow, approved: boolean) => void,
) {
  const { t } = useI18n();
  const [cursor, setCursor] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  // The listener is added once; it reads the page's latest rows and callbacks from here.
  const latest = useRef({ rows, openId, onModerate, cursor });
  latest.current = { rows, openId, onModerate, cursor };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = moderationKey({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        target: event.target as HTMLInputElement | null,
      });
      if (!action) return;
      const { rows, openId, onModerate, cursor } = latest.current;
      if (action === "next" || action === "previous") {
        if (openId) return;
        const next = moveCursor(cursor, action, rows.length);
        if (next === null) return;
        event.preventDefault();
        setCursor(next);
        const row = rows[next];
        document.getElementById(openButtonId(row.id))?.focus();
        setAnnouncement(
          t("reviews.keys.current", {
            n: next + 1,
            total: rows.length,
            rating: row.rating,
            name: row.name || t("reviews.detail.anonymous"),
            status: t(`reviews.status.${row.status}` as MessageKey),
          }),
        );
        return;
      }
      const row = openId ? rows.find((r) => r.id === openId) : cursor !== null ? rows[cursor] : undefined;
      if (!row) return;
      event.preventDefault();
      onModerate(row, action === "approve");
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [t]);
  return { cursor, announcement, announce: setAnnouncement };
}

/** A polite live region: what the keyboard did, read by screen readers, unseen. */
export function Announcer({ text }: { text: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      style={{ position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)" }}
    >
      {text}
    </div>
  );
}
