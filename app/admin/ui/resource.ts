import { useCallback, useEffect, useRef, useState } from "react";

// JSON from one of the app's resource routes, read with a plain fetch (App Bridge adds the session
// token to the app's own requests), not with a Remix fetcher. A fetcher's load of a route the
// browser has not discovered yet races with the revalidation after any form post on the page
// (Remix's lazy route discovery): the page can land on "No route matches URL" in its error
// boundary. These reads are the page's own business: they load when asked and never revalidate.

export type Resource<T> = { state: "idle" | "loading"; data: T | undefined; failed: boolean };

/** Loads `url` when asked; an earlier load still under way is dropped, so the newest answer wins. */
export function useResource<T>(): Resource<T> & { load: (url: string) => void } {
  const [now, setNow] = useState<Resource<T>>({ state: "idle", data: undefined, failed: false });
  const current = useRef<AbortController | null>(null);
  useEffect(() => () => current.current?.abort(), []);
  const load = useCallback((url: string) => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setNow((was) => ({ ...was, state: "loading" }));
    fetch(url, { headers: { Accept: "application/json" }, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`${response.status}`);
        const data = (await response.json()) as T;
        if (!controller.signal.aborted) setNow({ state: "idle", data, failed: false });
      })
      .catch(() => {
        if (!controller.signal.aborted) setNow((was) => ({ state: "idle", data: was.data, failed: true }));
      });
  }, []);
  return { ...now, load };
}

/** Loads `url` once the page shows, and again whenever `version` changes. */
export function useResourceOf<T>(url: string, version: string): Resource<T> {
  const resource = useResource<T>();
  const { load } = resource;
  useEffect(() => {
    load(url);
  }, [load, url, version]);
  return resource;
}
