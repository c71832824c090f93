// The model `toolwire run` uses without --model: picked from the API keys in the environment.
import { CliError, EXIT_USAGE } from "./exit-codes.js";

/** The Anthropic model `run` uses when only `ANTHROPIC_API_KEY` is set: one the pinned SDK does not mark deprecated. */
export const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-5-5";

/** The model `run` uses without `--model`: from the keys in the environment. */
export function defaultModelSpec(env: NodeJS.ProcessEnv): string {
  if (env.ANTHROPIC_API_KEY) return `anthropic:${env.ANTHROPIC_MODEL ?? DEFAULT_ANTHROPIC_MODEL}`;
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) return `openai:${env.OPENAI_MODEL ?? "gpt-4.1"}`;
  throw new CliError(
    EXIT_USAGE,
    "No model: pass --model scripted:FILE | anthropic:MODEL | openai:MODEL, or set ANTHROPIC_API_KEY or OPENAI_API_KEY (and OPENAI_BASE_URL for a local server).",
  );
}
