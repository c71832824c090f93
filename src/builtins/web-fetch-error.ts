// Why a web_fetch call got no page: the URL, the host or the address was refused, or the fetch itself failed.
import { ToolwireError } from "../core/errors.js";

/** Why a `web_fetch` call got no page (its error result's `details.code`). */
export type WebFetchErrorCode =
  | "invalid-url"
  | "host-not-allowed"
  | "address-not-allowed"
  | "method-not-allowed"
  | "too-many-redirects"
  | "fetch-timeout"
  | "fetch-failed";

/**
 * A `web_fetch` call refused or failed. The tool turns it into an error result (text for the model, the code in
 * `details.code`); it never escapes a call.
 */
export class WebFetchError extends ToolwireError<WebFetchErrorCode> {
  override readonly name = "WebFetchError";
}
