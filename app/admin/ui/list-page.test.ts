import { describe, expect, it } from "vitest";
import { listView } from "./list-page";

// The three answers of a list loader (app/.server/admin/lists.ts and kin), read one way.

describe("a list page's answer", () => {
  it("GIVEN the service's page THEN its rows, total and offset", () => {
    const view = listView({ connected: true, skip: 50, total: 120, rows: [{ id: "a" }] });
    expect(view).toEqual({ rows: [{ id: "a" }], total: 120, skip: 50, error: null });
  });

  it("GIVEN a shop not connected or a service that failed THEN no rows, and the error when there is one", () => {
    expect(listView({ connected: false })).toEqual({ rows: [], total: 0, skip: 0, error: null });
    const failed = listView({ connected: true, error: { key: "error.unreachable" } });
    expect(failed).toEqual({ rows: [], total: 0, skip: 0, error: { key: "error.unreachable" } });
  });
});
