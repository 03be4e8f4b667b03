// Text of an order as the mapper keeps it: runs of whitespace as one space, trimmed, and nothing
// (undefined) for an empty or non-string value.
export const trimmed = (s: unknown): string | undefined => {
  if (typeof s !== "string") return undefined;
  const t = s.replace(/\s+/g, " ").trim();
  return t === "" ? undefined : t;
};
