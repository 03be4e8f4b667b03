import { describe, expect, it } from "vitest";
import { keyspaceOf, queuePrefix, shopTag, untagged } from "./keyspace";

const single = { REDIS_PREFIX: "reviews", REDIS_CLUSTER: false };
const cluster = { REDIS_PREFIX: "reviews", REDIS_CLUSTER: true };

describe("the key layout", () => {
  it("GIVEN one Redis THEN the names are today's: a queue's keys under the prefix, a shop's under its name", () => {
    expect(queuePrefix(single, "webhooks")).toBe("reviews");
    expect(shopTag(single, "cl9x2shop")).toBe("cl9x2shop");
  });

  it("GIVEN a Redis Cluster THEN a queue's keys and a shop's keys carry them as their hash tag", () => {
    expect(queuePrefix(cluster, "webhooks")).toBe("reviews:{webhooks}");
    expect(shopTag(cluster, "cl9x2shop")).toBe("{cl9x2shop}");
    expect(untagged("{cl9x2shop}")).toBe("cl9x2shop");
    expect(untagged("cl9x2shop")).toBe("cl9x2shop");
  });

  it("GIVEN a connection THEN its keyspace follows the kind of Redis it is connected to", () => {
    expect(keyspaceOf({ isCluster: true }, "reviews")).toEqual(cluster);
    expect(keyspaceOf({ isCluster: false }, "reviews")).toEqual(single);
  });
});
