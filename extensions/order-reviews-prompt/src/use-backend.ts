import { useEffect, useState } from "preact/hooks";
import { compiledAppUrl, loadFromBackend, type BackendCall, type Loaded } from "./review-status";

/** The backend's answer about this order, asked once per order with a fresh session token; null while asked. */
export function useBackendAnswer<T>(
  path: BackendCall["path"],
  order: string,
  getToken: () => Promise<string>,
): Loaded<T> | null {
  const [state, setState] = useState<Loaded<T> | null>(null);
  useEffect(() => {
    void loadFromBackend<T>({ appUrl: compiledAppUrl(() => process.env.APP_URL), path, order, getToken, fetch }).then(
      setState,
    );
  }, [path, order]);
  return state;
}
