import { AppError } from "../errors";

/**
 * 400 invalid_code for a second-factor code that did not win (wrong, used, or
 * replayed). Thrown inside the transaction that would have acted on the code, so
 * the caller can tell it from other refusals and count it against the mfaToken
 * and the account's throttle after the rollback.
 */
export class WrongCodeError extends AppError {
  constructor() {
    super("invalid_code", "The code is wrong, or it was used already.");
  }
}
