import { describe, expect, it } from "vitest";
import { parseQuestionsQuery, publishedQuestions, questionsPage } from "./question-page";

const q = (id: string, created: string, extra: Record<string, unknown> = {}) => ({
  _id: id,
  status: "published",
  created,
  name: "Ana S.",
  text: `Question ${id}?`,
  reply: null,
  ...extra,
});

describe("questions a page at a time", () => {
  it("keeps published questions with text, newest first, ties by id, answers only when they have text", () => {
    const list = publishedQuestions([
      q("a", "2026-10-01T00:00:00Z"),
      q("b", "2026-10-03T00:00:00Z", { reply: { text: "Yes.", created: "2026-10-04T00:00:00Z", helpful: 0 } }),
      q("c", "2026-10-03T00:00:00Z", { reply: { text: "  " } }),
      q("d", "2026-10-05T00:00:00Z", { status: "sent" }),
      q("e", "2026-10-06T00:00:00Z", { text: "" }),
    ]);
    expect(list.map((x) => x.id)).toEqual(["c", "b", "a"]);
    expect(list[1].answer).toEqual({ text: "Yes.", date: "2026-10-04T00:00:00Z" });
    expect(list[0].answer).toBeNull();
  });

  it("cuts pages, and a page past the end shows the last one", () => {
    const all = publishedQuestions(
      Array.from({ length: 12 }, (_, i) =>
        q(String(i).padStart(2, "0"), `2026-10-${String(i + 1).padStart(2, "0")}T00:00:00Z`),
      ),
    );
    expect(questionsPage(all, { page: 1, pageSize: 5 })).toMatchObject({ page: 1, pages: 3, total: 12 });
    expect(questionsPage(all, { page: 3, pageSize: 5 }).questions.map((x) => x.id)).toEqual(["01", "00"]);
    expect(questionsPage(all, { page: 9, pageSize: 5 })).toMatchObject({ page: 3 });
    expect(questionsPage([], { page: 1, pageSize: 5 })).toEqual({ questions: [], page: 1, pages: 1, total: 0 });
  });

  it("reads page, pageSize and locale; refuses anything else with the reason", () => {
    expect(
      parseQuestionsQuery(new URLSearchParams("page=2&pageSize=10&locale=pt_BR&shop=x.myshopify.com&signature=s")),
    ).toEqual({ ok: true, query: { page: 2, pageSize: 10, locale: "pt-BR" } });
    expect(parseQuestionsQuery(new URLSearchParams(""))).toEqual({
      ok: true,
      query: { page: 1, pageSize: 5, locale: "en" },
    });
    expect(parseQuestionsQuery(new URLSearchParams("page=1.5"))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/page must be/),
    });
    expect(parseQuestionsQuery(new URLSearchParams("pageSize=21"))).toMatchObject({ ok: false });
    expect(parseQuestionsQuery(new URLSearchParams("sort=created"))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/sort is not a parameter/),
    });
  });
});
