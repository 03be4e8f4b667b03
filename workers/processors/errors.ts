import { UnrecoverableError } from "bullmq";

/**
 * A delivery that can never succeed (malformed payload, unknown topic, missing data the mapper needs):
 * recorded with its reason for the operator, never retried, never blocks other deliveries.
 */
export class PermanentJobError extends UnrecoverableError {
  constructor(message: string) {
    super(message);
    this.name = "PermanentJobError";
  }
}
