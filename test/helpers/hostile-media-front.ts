import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A reviews service that sends hostile URLs: a real HTTP front of the emulator that forwards every
// request and, in each JSON answer, gives every review (an object with an `_id` and a `rating`) the
// photos, video and syndication links `media()` chooses, as an independent or compromised service
// might. Everything else (auth, paging, schemas) stays the emulator's; point both the service's
// API and auth addresses at the front.

export interface ReviewMedia {
  pictures: { url: string; thumb: string }[];
  video: { url: string; thumb: string } | null;
  /** A syndicated review's source: shown with its logo and a link to its product. */
  source: { logo: string; url: string } | null;
}

export interface HostileFront {
  origin: string;
  close(): Promise<void>;
}

function rewrite(value: unknown, media: ReviewMedia): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, media));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = rewrite(v, media);
  if (typeof out._id === "string" && typeof out.rating === "number") {
    out.pictures = media.pictures.map((p, i) => ({ _id: `hostile-${i}`, ...p }));
    out.hasPicture = media.pictures.length > 0;
    out.video = media.video;
    out.hasVideo = media.video !== null;
    if (media.source)
      Object.assign(out, {
        syndicationDisplaySource: "Partner Store",
        syndicationSourceLogo: media.source.logo,
        syndicationSourceProductUrl: media.source.url,
      });
  }
  return out;
}

export async function startHostileFront(upstream: string, media: () => ReviewMedia): Promise<HostileFront> {
  const target = new URL(upstream);
  let origin = "";
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers))
          if (typeof v === "string" && k !== "host" && k !== "content-length") headers.set(k, v);
        // The token's audience names the service's address: the front's, which the emulator knows as its own.
        const body = chunks.length
          ? Buffer.concat(chunks)
              .toString("utf8")
              .split(encodeURIComponent(origin))
              .join(encodeURIComponent(target.origin))
              .split(origin)
              .join(target.origin)
          : undefined;
        const answer = await fetch(new URL(req.url ?? "/", target.origin), { method: req.method, headers, body });
        let text = await answer.text();
        if ((answer.headers.get("content-type") ?? "").includes("json") && text)
          text = JSON.stringify(rewrite(JSON.parse(text), media()));
        res
          .writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" })
          .end(text);
      })().catch((e: Error) => res.writeHead(502).end(e.message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
