import { spawn } from "node:child_process";
import { ROOT } from "./children";
import { progress } from "./measure";
import { exactly, type BenchResult } from "./report";

// Scenario "shop-app": Shop app syndication of N reviews (shop-app-syndication.ts, in a process of
// its own: its first stdout line is its figures) on a Plus-sized bucket, with the time each plan's
// bucket alone would take for the same points. The time is the bucket's to set; the targets are
// that every review Shopify can take is written, exactly once.

interface Line {
  plan: string;
  reviews: number;
  upserted: number;
  leftOut: number;
  refused: number;
  metaobjects: number;
  runs: number;
  calls: number;
  throttledAnswers: number;
  points: number;
  seconds: number;
  reviewsPerSecond: number;
  floorSeconds: Record<string, number>;
}

function run(reviews: number, plan: string): Promise<Line> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/bench/shop-app-syndication.ts", "--reviews", String(reviews), "--plan", plan],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.once("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith('{"bench"'));
      if (code !== 0 || !line) reject(new Error(`shop-app-syndication exited ${code}:\n${out}`));
      else resolve(JSON.parse(line) as Line);
    });
  });
}

export async function runShopAppBench(o: { reviews: number; plans: string[] }): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const plan of o.plans) {
    progress(`shop app: syndicating ${o.reviews.toLocaleString("en-US")} reviews on a ${plan} bucket`);
    const l = await run(o.reviews, plan);
    results.push({
      scenario: `Shop app syndication (${o.reviews.toLocaleString("en-US")} reviews, ${plan} bucket)`,
      figures: {
        reviews: l.reviews,
        "product_review metaobjects written": l.upserted,
        "metaobjects the store holds": l.metaobjects,
        "left out (no order, or a guest order)": l.leftOut,
        "refused by Shopify": l.refused,
        "back-sync runs it took (a run writes at most 100 pages)": l.runs,
        "Admin API calls answered": l.calls,
        "THROTTLED answers": l.throttledAnswers,
        "cost points charged": l.points,
        "time (s)": l.seconds,
        "reviews per second": l.reviewsPerSecond,
        "bucket floor for these points, standard / advanced / plus (s)": `${l.floorSeconds.standard} / ${l.floorSeconds.advanced} / ${l.floorSeconds.plus}`,
      },
      targets: {
        "one metaobject per review written": exactly(l.metaobjects, l.upserted),
        "every review with an order and a customer written": exactly(l.upserted, l.reviews - l.leftOut),
      },
    });
  }
  return results;
}
