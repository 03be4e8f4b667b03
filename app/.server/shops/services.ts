import type { ShopRepository } from "./shop.repository";

// The shop records among the services a job's use case may be given (jobs/services.ts).
declare module "../jobs/services" {
  interface JobServices {
    shops: ShopRepository;
  }
}
